// Checks the settings given to an installation against the configuration form the integration published
// for that target (`configurations.account`, `.space` or `.site`): each required setting present, each
// known setting of its declared type and, for an enum, one of its values. Settings the form does not
// name are kept (the description calls the configuration free-form). The whole is capped in size.
// A target configured by a component of the integration (`{ componentId }`) has no form here: the component
// checks its settings, so they are stored as given, within the same size limit.
import { BadRequest } from '../errors.js';

/** The largest configuration accepted, written as JSON. */
export const MAX_CONFIGURATION_BYTES = 64 * 1024;

interface Property {
  type?: string;
  enum?: unknown[];
}
interface ConfigurationSchema {
  properties?: Record<string, Property>;
  required?: string[];
}

const typeChecks: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
};

/**
 * `configuration` if it fits the integration's form for `target`; BadRequest naming the setting
 * (`body.configuration.<name>`) otherwise.
 */
export function checkConfiguration(configurations: unknown, target: 'account' | 'space' | 'site', configuration: Record<string, unknown>): Record<string, unknown> {
  if (Buffer.byteLength(JSON.stringify(configuration)) > MAX_CONFIGURATION_BYTES) {
    throw new BadRequest(`body.configuration: at most ${MAX_CONFIGURATION_BYTES} bytes of JSON`);
  }
  const schema = (configurations as Record<string, ConfigurationSchema | undefined> | null)?.[target];
  if (!schema || !('properties' in schema)) return configuration;
  for (const name of schema.required ?? []) {
    if (configuration[name] === undefined || configuration[name] === null) {
      throw new BadRequest(`body.configuration.${name}: required by the integration's ${target} configuration`);
    }
  }
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = configuration[name];
    if (value === undefined || value === null) continue;
    const check = property.type !== undefined ? typeChecks[property.type] : undefined;
    if (check && !check(value)) throw new BadRequest(`body.configuration.${name}: expected a ${property.type}`);
    if (Array.isArray(property.enum) && property.enum.length > 0 && !property.enum.includes(value)) {
      throw new BadRequest(`body.configuration.${name}: expected one of ${property.enum.map((v) => JSON.stringify(v)).join(', ')}`);
    }
  }
  return configuration;
}
