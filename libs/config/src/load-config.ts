import { type ConfigSection, type SectionSpec, type SectionValues } from './config-section.js';

export class ConfigError extends Error {
  constructor(
    readonly problems: readonly string[],
    /** A closing line (what the mode refuses and where it is documented). */
    hint?: string,
  ) {
    super(
      `Invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n  - ${problems.join('\n  - ')}${hint ? `\n${hint}` : ''}`,
    );
    this.name = 'ConfigError';
  }
}

/**
 * Reads every variable of every section, collecting all problems before failing, so one boot
 * attempt shows everything that is wrong. Sensitive values never appear in a message.
 */
export function loadSection<S extends SectionSpec>(
  section: ConfigSection<S>,
  source: Readonly<Record<string, string | undefined>>,
  problems: string[],
): SectionValues<S> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(section.vars)) {
    const raw = source[name] === undefined || source[name] === '' ? spec.default : source[name];
    if (raw === undefined) {
      problems.push(`${name} is required (${spec.description})`);
      continue;
    }
    const parsed = spec.schema.safeParse(raw);
    if (parsed.success) {
      out[name] = parsed.data;
    } else {
      const shown = spec.sensitive ? '<redacted>' : JSON.stringify(raw);
      const why = parsed.error.issues.map((i) => i.message).join('; ');
      problems.push(`${name}=${shown} is invalid: ${why}`);
    }
  }
  return out as SectionValues<S>;
}

export function loadConfig<const T extends readonly ConfigSection[]>(
  sections: T,
  source: Readonly<Record<string, string | undefined>> = process.env,
): { [I in keyof T]: T[I] extends ConfigSection<infer S> ? SectionValues<S> : never } {
  const problems: string[] = [];
  const values = sections.map((s) => loadSection(s, source, problems));
  if (problems.length > 0) throw new ConfigError(problems);
  return values as { [I in keyof T]: T[I] extends ConfigSection<infer S> ? SectionValues<S> : never };
}

/** A printable view of the effective configuration, with sensitive values masked. */
export function describeConfig(
  sections: readonly ConfigSection[],
  source: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const section of sections) {
    for (const [name, spec] of Object.entries(section.vars)) {
      const raw = source[name] ?? spec.default;
      out[name] = raw === undefined ? '<unset>' : spec.sensitive ? '<redacted>' : raw;
    }
  }
  return out;
}
