import { createHash } from 'node:crypto';
import { providerUrlRefusal, type DevelopmentDefaultRule } from '#config';
import { DEVELOPMENT_ENCRYPTION_KEY, parsePreviousKeys } from '#ledger';
import { DEVELOPMENT_DEAD_LETTER_DIGEST_KEY } from '#pipeline';
import { providerClientConfig } from '#provider-client';

const SANDBOX_CLIENT_ID = providerClientConfig.vars.PROVIDER_CLIENT_ID.default;
const SANDBOX_CLIENT_SECRET = providerClientConfig.vars.PROVIDER_CLIENT_SECRET.default;
const DEVELOPMENT_KEY = Buffer.from(DEVELOPMENT_ENCRYPTION_KEY, 'base64');
const DEVELOPMENT_DIGEST_KEY = Buffer.from(DEVELOPMENT_DEAD_LETTER_DIGEST_KEY, 'base64');
/** The SHA-256 of an empty token: an operator entry anyone could sign in with. */
const EMPTY_TOKEN_SHA256 = createHash('sha256').update('').digest('hex');

const PROVIDER_HOSTS =
  "`sandbox`, a placeholder (`*.invalid`), a host named as a sandbox (the provider's test host, compose's `sandbox`), plain http to another machine";

const isDevelopmentKey = (base64: string) => Buffer.from(base64.trim(), 'base64').equals(DEVELOPMENT_KEY);

/** The accounts of PROVIDER_ACCOUNTS that carry the sandbox's credentials (by position, no values). */
function sandboxAccounts(raw: string): string | undefined {
  let accounts: unknown;
  try {
    accounts = JSON.parse(raw);
  } catch {
    return undefined; // the schema reports it
  }
  if (!Array.isArray(accounts)) return undefined;
  const found = accounts.flatMap((a: unknown, i) => {
    if (typeof a !== 'object' || a === null) return [];
    const { clientId, clientSecret } = a as { clientId?: unknown; clientSecret?: unknown };
    const which = [
      clientId === SANDBOX_CLIENT_ID ? 'clientId' : undefined,
      clientSecret === SANDBOX_CLIENT_SECRET ? 'clientSecret' : undefined,
    ].filter((w) => w !== undefined);
    return which.length > 0 ? [`entry ${i + 1} (${which.join(', ')})`] : [];
  });
  return found.length > 0 ? `the provider sandbox's credentials in ${found.join('; ')}` : undefined;
}

/**
 * The payout service's development values, one row each: DEPLOYMENT_MODE=production refuses every
 * one at boot, development names them in one warning (docs/OPERATIONS.md, "Deployment mode").
 * development-defaults.spec.ts fails when a section declares a sensitive default, or a default
 * that names this machine or the sandbox, without a row here.
 */
export const SERVICE_DEVELOPMENT_DEFAULTS: readonly DevelopmentDefaultRule[] = [
  {
    variable: 'DATABASE_URL',
    why: 'the ledger would be the development database on this machine (user postgres, no password)',
  },
  {
    variable: 'KAFKA_BROKERS',
    why: 'commands and events would go to a development broker on this machine',
  },
  {
    variable: 'PROVIDER_BASE_URL',
    why: 'payouts would go to the local provider sandbox, not the provider',
    refuse: { what: PROVIDER_HOSTS, check: providerUrlRefusal },
  },
  {
    variable: 'PROVIDER_PAYOUT_URL',
    why: 'payouts would go to the local provider sandbox, not the provider',
    refuse: { what: PROVIDER_HOSTS, check: providerUrlRefusal },
  },
  {
    variable: 'PROVIDER_CLIENT_ID',
    why: "the client id would be the provider sandbox's",
  },
  {
    variable: 'PROVIDER_CLIENT_SECRET',
    why: "the client secret would be the provider sandbox's, published in the source",
  },
  {
    variable: 'PROVIDER_ACCOUNTS',
    why: "accounts would use the provider sandbox's credentials",
    refuse: { what: "an account with the sandbox's client id or secret", check: sandboxAccounts },
  },
  {
    variable: 'LEDGER_ENCRYPTION_KEY',
    why: 'transfer tokens, card tokens and cryptograms would be sealed with the development key, published in the source',
    refuse: {
      what: 'the development key in another base64 spelling',
      check: (v) =>
        isDevelopmentKey(v)
          ? 'it is the development key (published in the source) in another spelling'
          : undefined,
    },
  },
  {
    variable: 'LEDGER_ENCRYPTION_KEY_ID',
    why: "the key id would be the development key's (dev-1); name your key (a deployment already running on dev-1 sets it explicitly)",
  },
  {
    variable: 'LEDGER_PREVIOUS_KEYS',
    why: 'an older key would be the development key',
    refuse: { what: 'the development key among the older keys', check: previousDevelopmentKeys },
  },
  {
    variable: 'DEAD_LETTER_DIGEST_KEY',
    why: "dead letters' digests would be keyed with the development key, published in the source: a masked phone or account number could be recovered from them",
    refuse: {
      what: 'the development key in another base64 spelling',
      check: (v) =>
        Buffer.from(v.trim(), 'base64').equals(DEVELOPMENT_DIGEST_KEY)
          ? 'it is the development key (published in the source) in another spelling'
          : undefined,
    },
  },
  {
    variable: 'OPS_OPERATORS',
    why: 'an operator would be one of the demo or sign in with an empty token',
    refuse: {
      what: "the demo's operators (`demo-*`), an operator whose token is empty",
      check: demoOperators,
    },
  },
];

function previousDevelopmentKeys(v: string): string | undefined {
  const dev = [...parsePreviousKeys(v).keys].filter(([, key]) => key.equals(DEVELOPMENT_KEY));
  return dev.length > 0
    ? `key ${dev.map(([kid]) => kid).join(', ')} is the development key (published in the source): what it sealed is readable by anyone`
    : undefined;
}

function demoOperators(v: string): string | undefined {
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const demo = entries.filter((e) => e.startsWith('demo-')).map((e) => e.split(':')[0]);
  const empty = entries.filter((e) => e.endsWith(`:${EMPTY_TOKEN_SHA256}`)).map((e) => e.split(':')[0]);
  const why = [
    demo.length > 0 ? `${demo.join(', ')} ${demo.length === 1 ? 'is' : 'are'} the demo's (npm run demo)` : '',
    empty.length > 0 ? `${empty.join(', ')} sign${empty.length === 1 ? 's' : ''} in with an empty token` : '',
  ].filter(Boolean);
  return why.length > 0 ? why.join('; ') : undefined;
}
