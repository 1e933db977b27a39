import { decodeQueryData } from '#contracts';
import { type ManageBeneficiaries } from '#pipeline';
import { bodyOf } from '../shared/notes.js';

/** The details the contract's `beneficiary.create` schema accepts. */
export type BeneficiaryDetails = Parameters<ManageBeneficiaries['create']>[1];

/**
 * A registration as the operator sent it. The details are decoded here; a refusal is carried, not
 * thrown, because the use case records every refused change with who asked (and the id, if any).
 */
export interface CreateBeneficiaryCommand {
  readonly accountId: string;
  /** The body's `beneId` when it is text, for the record even when the details are refused. */
  readonly beneId: string | null;
  readonly details:
    | { readonly ok: true; readonly value: BeneficiaryDetails }
    | { readonly ok: false; readonly detail: string };
}

/** The path's account and the body, decoded by the contract's `beneficiary.create` schema. */
export function parseCreateBeneficiary(accountId: string, body: unknown): CreateBeneficiaryCommand {
  const beneId = bodyOf(body)['beneId'];
  const data = decodeQueryData('beneficiary.create', body);
  return {
    accountId,
    beneId: typeof beneId === 'string' ? beneId : null,
    details: data.ok ? { ok: true, value: data.value } : { ok: false, detail: data.detail },
  };
}
