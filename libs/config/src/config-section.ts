import { z } from 'zod';

/**
 * One environment variable, declared once: its schema (which parses the raw string), a default,
 * a description for the docs, and whether its value is sensitive (never printed, even on error).
 */
export interface EnvVar<T> {
  readonly schema: z.ZodType<T>;
  readonly default?: string;
  readonly description: string;
  readonly sensitive?: boolean;
}

export type SectionSpec = Record<string, EnvVar<unknown>>;

export type SectionValues<S extends SectionSpec> = {
  readonly [K in keyof S]: S[K] extends EnvVar<infer T> ? T : never;
};

export interface ConfigSection<S extends SectionSpec = SectionSpec> {
  readonly name: string;
  readonly vars: S;
}

export function envVar<T>(spec: EnvVar<T>): EnvVar<T> {
  return spec;
}

export function defineSection<S extends SectionSpec>(name: string, vars: S): ConfigSection<S> {
  return { name, vars };
}

/** Schemas for the string forms environment variables take. */
export const env = {
  string: () => z.string().min(1, 'must not be empty'),
  port: () => z.coerce.number().int().min(1).max(65535),
  /** A port to listen on; 0 asks the OS for a free one (tests). */
  listenPort: () => z.coerce.number().int().min(0).max(65535),
  positiveInt: () => z.coerce.number().int().positive(),
  nonNegativeInt: () => z.coerce.number().int().min(0),
  boolean: () =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  url: (protocols: readonly string[]) =>
    z
      .string()
      .url('must be a URL')
      .refine((v) => URL.canParse(v) && protocols.includes(new URL(v).protocol.replace(/:$/, '')), {
        message: `protocol must be one of ${protocols.join(', ')}`,
      }),
  list: () =>
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s.length > 0),
      )
      .refine((l) => l.length > 0, { message: 'must list at least one value' }),
  hostPortList: () =>
    env.list().refine((l) => l.every((hp) => /^[^\s:]+:\d{1,5}$/.test(hp)), {
      message: 'each entry must be host:port',
    }),
  enumOf: <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values),
  /**
   * A JSON value checked by `schema`; empty (or blank): `empty`. Not JSON: "must be JSON"; a
   * value the schema refuses: each of its issues, with its path (`0.threshold: ...`).
   */
  json: <T>(schema: z.ZodType<T>, empty: T) =>
    z.string().transform((raw, ctx): T => {
      if (raw.trim() === '') return empty;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be JSON' });
        return z.NEVER;
      }
      const p = schema.safeParse(value);
      if (!p.success) {
        for (const i of p.error.issues)
          ctx.addIssue({ code: 'custom', message: `${i.path.join('.')}: ${i.message}` });
        return z.NEVER;
      }
      return p.data;
    }),
};
