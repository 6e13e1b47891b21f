// OpenAPI links, derived from the paths of the contract so that no operation has to list them by hand:
//   - a create (a POST answering 201) links to the read, update and delete of what it made: the operations
//     at its path plus one `{id}` parameter, which the link fills from the created resource's `id`;
//   - a read (a GET at `…/{id}` answering 200) and a create link to the lists under the resource
//     (`GET …/{id}/<more>` with no other new parameter): space → pages and files, change request → its
//     content, site → sections, site spaces and section groups, and so on.
// Property-based tools (Schemathesis' stateful mode) and the reference docs follow them.
type Json = Record<string, any>;

const methods = ['get', 'put', 'patch', 'delete', 'post'] as const;

interface Op {
  method: string;
  path: string;
  operation: Json;
}

const paramsOf = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);

/** The link name: the operation's id with a capital, e.g. `GetSpaceById`. */
const linkName = (operationId: string) => operationId[0].toUpperCase() + operationId.slice(1);

function successSchema(operation: Json, status: string): boolean {
  return Boolean(operation.responses?.[status]?.content?.['application/json']?.schema);
}

/** Adds `links` to the success responses of `document` (an OpenAPI 3.1 document object); returns it. */
export function addLinks(document: Json): Json {
  const ops: Op[] = Object.entries(document.paths as Json).flatMap(([path, item]) =>
    methods.filter((m) => item[m]).map((method) => ({ method, path, operation: item[method] as Json })),
  );
  const resolve = (schema: Json | undefined): Json | undefined =>
    schema?.$ref ? resolve(document.components.schemas[String(schema.$ref).split('/').pop()!]) : schema;
  /**
   * The property of the created resource that fills `param`: `id` for `…Id` (else `space` for `spaceId`,
   * an installation on a space), `slug` for `specSlug`, `name` for `integrationName`.
   */
  /** The properties of a schema; of a union, those every branch has (an invite to an organization, a space or a collection). */
  const propertiesOf = (schema: Json | undefined): Json => {
    const resolved = resolve(schema);
    const branches = (resolved?.anyOf ?? resolved?.oneOf) as Json[] | undefined;
    if (!branches) return resolved?.properties ?? {};
    const [first, ...rest] = branches.map(propertiesOf);
    return Object.fromEntries(Object.entries(first ?? {}).filter(([name]) => rest.every((props) => name in props)));
  };
  const keyOf = (source: Op, param: string): string | undefined => {
    const properties = propertiesOf(source.operation.responses['201'].content['application/json'].schema);
    if (param.endsWith('Id') && 'id' in properties) return 'id';
    if (param.endsWith('Id') && param.slice(0, -2) in properties) return param.slice(0, -2);
    return Object.keys(properties).find((k) => param.toLowerCase().endsWith(k.toLowerCase()));
  };
  const link = (source: Op, target: Op, idParam: string, from: 'request' | 'response') => {
    const key = from === 'response' ? keyOf(source, idParam) : undefined;
    if (from === 'response' && !key) return undefined;
    const parameters = Object.fromEntries(
      paramsOf(target.path).map((name) => [name, name === idParam && key ? `$response.body#/${key}` : `$request.path.${name}`]),
    );
    return [linkName(target.operation.operationId), { operationId: target.operation.operationId, parameters }] as const;
  };
  for (const source of ops) {
    const created = source.method === 'post' && successSchema(source.operation, '201');
    const read = source.method === 'get' && /\/\{\w+\}$/.test(source.path) && successSchema(source.operation, '200');
    if (!created && !read) continue;
    // The resource's own path: one `{id}` more than the create's path, or the read's path itself.
    const links: (readonly [string, Json])[] = [];
    for (const target of ops) {
      if (target === source) continue;
      if (created) {
        const extra = target.path.startsWith(`${source.path}/{`) ? target.path.slice(source.path.length + 1) : undefined;
        const idParam = extra?.match(/^\{(\w+)\}(\/[^{}]*)?$/)?.[1];
        if (!idParam) continue;
        const own = extra === `{${idParam}}` && target.method !== 'post';
        const list = extra !== `{${idParam}}` && target.method === 'get';
        const made = own || list ? link(source, target, idParam, 'response') : undefined;
        if (made) links.push(made);
      } else if (target.method === 'get' && target.path.startsWith(`${source.path}/`) && !target.path.slice(source.path.length).includes('{')) {
        links.push(link(source, target, '', 'request')!);
      }
    }
    if (links.length === 0) continue;
    const response = source.operation.responses[created ? '201' : '200'];
    response.links = Object.fromEntries(links);
  }
  return document;
}
