import { type ConfigSection, type EnvVar } from './config-section.js';

export type EnvSource = Readonly<Record<string, string | undefined>>;

/**
 * One row of the table production is checked against: a variable whose default (or some value) is
 * fit for development only. The table is data, walked the same way in both modes: production
 * refuses what it finds, development names it in one warning. A spec next to each table fails
 * when a section declares a development-looking default without a row.
 */
export interface DevelopmentDefaultRule {
  readonly variable: string;
  /** Why the development value is no good in production; said in the problem, with no value. */
  readonly why: string;
  /** Values set explicitly that production refuses as well (a development value in another spelling, a sandbox host). */
  readonly refuse?: {
    /** What it refuses, in words, for docs/CONFIGURATION.md. */
    readonly what: string;
    /** The reason for this value, never quoting it, or undefined when it is fine. */
    readonly check: (value: string, source: EnvSource) => string | undefined;
  };
}

export interface DevelopmentValue {
  readonly variable: string;
  /** A sentence naming the variable, never its value when it is sensitive. */
  readonly problem: string;
}

const blank = (v: string | undefined): v is undefined => v === undefined || v.trim() === '';

function declared(sections: readonly ConfigSection[], variable: string): EnvVar<unknown> {
  for (const s of sections) {
    const spec = s.vars[variable];
    if (spec) return spec;
  }
  throw new Error(`development-default rule for ${variable}, which no config section declares`);
}

/**
 * Every development value the environment leaves in use: a variable of the table left unset
 * (its development default applies), set to that default, or set to a value its row refuses.
 */
export function developmentValuesInUse(
  sections: readonly ConfigSection[],
  rules: readonly DevelopmentDefaultRule[],
  source: EnvSource,
): DevelopmentValue[] {
  const out: DevelopmentValue[] = [];
  for (const rule of rules) {
    const spec = declared(sections, rule.variable);
    const raw = source[rule.variable];
    const hasDefault = !blank(spec.default);
    if (blank(raw)) {
      if (hasDefault)
        out.push({ variable: rule.variable, problem: `${rule.variable} is not set, so ${rule.why}` });
      continue;
    }
    if (hasDefault && raw === spec.default) {
      out.push({
        variable: rule.variable,
        problem: `${rule.variable} is set to its development default: ${rule.why}`,
      });
      continue;
    }
    const refused = rule.refuse?.check(raw, source);
    if (refused !== undefined) out.push({ variable: rule.variable, problem: `${rule.variable}: ${refused}` });
  }
  return out;
}

/** Host names that are this machine: plain http to them does not cross a network. */
export function isLocalHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Why a provider URL is refused in production: the local sandbox (`sandbox`), a placeholder
 * (`*.invalid`, as in the Helm chart's values), a host named as a sandbox (the provider's own test
 * host, the compose service), or plain http to another machine (the client secret and bearer
 * tokens would cross the network in clear).
 */
export function providerUrlRefusal(value: string): string | undefined {
  if (value === 'sandbox') return "'sandbox' is the local provider sandbox, not the provider";
  if (!URL.canParse(value)) return undefined; // the schema reports it
  const url = new URL(value);
  if (/(^|\.)invalid$/i.test(url.hostname))
    return `the host ${url.hostname} is a placeholder (.invalid never resolves): name the provider's host`;
  if (url.hostname.split('.').some((label) => label.toLowerCase().includes('sandbox')))
    return `the host ${url.hostname} is a sandbox, not the provider's production API`;
  if (url.protocol === 'http:' && !isLocalHost(url.hostname))
    return `plain http to ${url.hostname}: the client secret and bearer tokens would cross the network in clear (use https)`;
  return undefined;
}
