import { type ProviderApi } from '#contracts';
import { maskAccountNumber, maskEmail, maskPhone, maskVpa } from '#observability';
import { type BeneficiaryDetails, type ProviderBeneficiary, type ProviderResult } from '#provider-client';

/** What became of a beneficiary request, in the service's terms. */
export type BeneficiaryResult = 'created' | 'exists' | 'found' | 'deleted' | 'absent';

/**
 * Why one was not done. `conflict`: the id (or the account) is registered with other details;
 * `unknown`: the provider's answer was unclear and a check did not settle it (asking again is
 * safe); `unavailable`: nothing was done (rate limit, auth), ask again later; `config`: the
 * account's credentials, address or product need a person.
 */
export type BeneficiaryErrorCode =
  'conflict' | 'not_found' | 'invalid' | 'refused' | 'unavailable' | 'unknown' | 'config';

/** A beneficiary as shown outside the connector: account number, VPA, phone and email masked. */
export interface MaskedBeneficiary {
  readonly beneId: string;
  readonly name?: string;
  readonly bankAccount?: string;
  readonly ifsc?: string;
  readonly vpa?: string;
  readonly email?: string;
  readonly phone?: string;
  readonly city?: string;
  readonly state?: string;
  readonly status?: string;
  readonly addedOn?: string;
}

export type BeneficiaryAnswer =
  | {
      readonly ok: true;
      readonly generation: ProviderApi;
      readonly result: BeneficiaryResult;
      readonly beneficiary?: MaskedBeneficiary;
    }
  | {
      readonly ok: false;
      readonly generation: ProviderApi;
      readonly code: BeneficiaryErrorCode;
      readonly message: string;
      readonly providerCode?: string;
    };

export function maskBeneficiary(b: ProviderBeneficiary): MaskedBeneficiary {
  const out: Record<string, string> = { beneId: b.beneId };
  const put = (k: keyof MaskedBeneficiary, v: string | undefined, mask?: (s: string) => string): void => {
    if (v) out[k] = mask ? mask(v) : v;
  };
  put('name', b.name);
  put('bankAccount', b.bankAccount, maskAccountNumber);
  put('ifsc', b.ifsc);
  put('vpa', b.vpa, maskVpa);
  put('email', b.email, maskEmail);
  put('phone', b.phone, maskPhone);
  put('city', b.city);
  put('state', b.state);
  put('status', b.status);
  put('addedOn', b.addedOn);
  return out as unknown as MaskedBeneficiary;
}

const digits = (p: string): string => {
  const d = p.replace(/\D/g, '');
  return d.length > 10 && d.startsWith('91') ? d.slice(2) : d;
};

/** Each field compared as the provider may normalise it (case, spacing, the +91 of a phone). */
const COMPARED: ReadonlyArray<readonly [keyof BeneficiaryDetails, (v: string) => string]> = [
  ['name', (v) => v.trim().replace(/\s+/g, ' ').toLowerCase()],
  ['bankAccount', (v) => v.trim().toUpperCase()],
  ['ifsc', (v) => v.trim().toUpperCase()],
  ['vpa', (v) => v.trim().toLowerCase()],
  ['email', (v) => v.trim().toLowerCase()],
  ['phone', digits],
];

/**
 * The fields whose asked value the registered beneficiary does not hold. Only what was asked is
 * compared: a field left out of the request is whatever the provider has. Names only, never values.
 */
export function differingFields(asked: BeneficiaryDetails, found: ProviderBeneficiary): string[] {
  const out: string[] = [];
  if (asked.beneId !== found.beneId) out.push('beneId');
  for (const [k, norm] of COMPARED) {
    const a = asked[k];
    if (!a) continue;
    const f = found[k];
    if (!f || norm(a) !== norm(f)) out.push(k);
  }
  return out;
}

/** A refusal or an unclear answer, in the service's terms. */
export function beneficiaryErrorOf(generation: ProviderApi, r: ProviderResult<unknown>): BeneficiaryAnswer {
  const providerCode = r.diagnostics.evidence;
  const e = (code: BeneficiaryErrorCode, message: string): BeneficiaryAnswer => ({
    ok: false,
    generation,
    code,
    message,
    ...(providerCode === undefined ? {} : { providerCode }),
  });
  switch (r.outcome) {
    case 'success':
    case 'pending':
      return e('unknown', 'The provider has not confirmed it yet');
    case 'failed':
      switch (r.kind) {
        case 'not-found':
          return e('not_found', r.reason);
        case 'invalid-request':
          return e('invalid', r.diagnostics.message ?? r.reason);
        case 'duplicate':
          return e('conflict', r.reason);
        case 'rejected':
        case 'reversed':
        case 'expired':
          return e('refused', r.reason);
      }
      return e('refused', r.reason);
    case 'unknown':
      return e('unknown', `${r.reason}: asking again is safe`);
    case 'retry-safe':
    case 'auth-refresh':
      return e('unavailable', `${r.reason}: nothing was done, ask again later`);
    case 'fatal-config':
      return e('config', r.reason);
  }
}

/**
 * After "it exists" (a 409, or a create whose answer was lost): what the registered one says.
 * Same details: the create stands ("exists"); other details: a conflict naming the fields.
 */
export function decideExisting(
  generation: ProviderApi,
  asked: BeneficiaryDetails,
  found: ProviderResult<ProviderBeneficiary>,
  unclear: boolean,
): BeneficiaryAnswer {
  if (found.outcome !== 'success') {
    if (found.outcome === 'failed' && found.kind === 'not-found') {
      return unclear
        ? {
            ok: false,
            generation,
            code: 'unknown',
            message: 'The create was not confirmed: asking again is safe',
          }
        : {
            ok: false,
            generation,
            code: 'conflict',
            message: 'The provider says it exists but does not show it under this id',
          };
    }
    return beneficiaryErrorOf(generation, found);
  }
  const diff = differingFields(asked, found.data);
  if (diff.length === 0) {
    return { ok: true, generation, result: 'exists', beneficiary: maskBeneficiary(found.data) };
  }
  return {
    ok: false,
    generation,
    code: 'conflict',
    message:
      found.data.beneId === asked.beneId
        ? `Beneficiary ${asked.beneId} is registered with other details (${diff.join(', ')})`
        : `This account and IFSC are registered as beneficiary ${found.data.beneId}`,
  };
}
