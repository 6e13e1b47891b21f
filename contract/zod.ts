// The one place that teaches Zod the `.openapi()` method; every contract file imports `z` from here,
// so the extension is always installed before a schema is declared.
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
