import { z } from 'zod';
import { defineSection, envVar, type SectionValues } from '#config';

/** Variables of the operations API. Documented in docs/CONFIGURATION.md ("Operations API"). */
export const operationsConfig = defineSection('operations', {
  OPS_API_TOKEN: envVar({
    // Empty (the default) turns the operations API off: every /ops path answers 404.
    schema: z.string().refine((v) => v === '' || (v.length >= 24 && !/\s/.test(v)), {
      message: 'must be empty (API off) or at least 24 characters without spaces',
    }),
    default: '',
    description:
      'Bearer token of the operations API (/ops/...); empty turns the API off (every /ops path answers 404)',
    sensitive: true,
  }),
});

export type OperationsConfig = SectionValues<typeof operationsConfig.vars>;
