import { type ProviderApi } from '#contracts';
import { type ConnectorKind, type KindTraits } from './connector.port.js';

type TraitTable = { readonly [K in ConnectorKind]: KindTraits };

/** v1 (the legacy API, and v2's transfer-token form, the one v2 call v1 accounts already make). */
const V1: TraitTable = {
  standard_transfer: {
    initiation: 'requestTransfer',
    status: 'getTransferStatus',
    resendIsSafe: true,
    reversalWatch: true,
  },
  direct_transfer: {
    initiation: 'directTransfer',
    status: 'getTransferStatus',
    resendIsSafe: true,
    reversalWatch: true,
  },
  card_payout: {
    initiation: 'cardpay',
    status: 'getTransferStatus',
    resendIsSafe: true,
    reversalWatch: true,
  },
  validated_upi_payout: {
    initiation: 'processValidatedPayout',
    status: 'getTransferStatusV2',
    resendIsSafe: true,
    // No documented reversal of a v2 UPI payout (ADR 0008).
    reversalWatch: false,
  },
  internal_transfer: {
    initiation: 'internalTransfer',
    status: 'getTransferStatus',
    // No documented duplicate answer: never re-sent; in doubt it is settled by status (FAILED
    // not_received_by_provider once still unknown after NOT_FOUND_SETTLE_MS).
    resendIsSafe: false,
    reversalWatch: true,
  },
  // The status of a withdrawal is only in the provider's dashboard.
  self_withdrawal: { initiation: 'selfWithdrawal', status: null, resendIsSafe: false, reversalWatch: false },
};

/**
 * v2: standard and direct transfers go to Transfers V2 (`POST /payout/transfers`, by beneficiary
 * id or inline details) and are asked about by transfer_id on `GET /payout/transfers`; a v2
 * transfer can be REVERSED (provider-v2.md), so SUCCESS is watched as on v1. The other kinds
 * keep their v1 endpoints: the provider publishes no v2 card payout with the command's token
 * fields, no v2 internal transfer and no v2 self withdrawal (ADR 0019).
 */
const V2: TraitTable = {
  ...V1,
  standard_transfer: {
    initiation: 'transferV2',
    status: 'getTransferStatusV2',
    resendIsSafe: true,
    reversalWatch: true,
  },
  direct_transfer: {
    initiation: 'transferV2',
    status: 'getTransferStatusV2',
    resendIsSafe: true,
    reversalWatch: true,
  },
};

/** Per generation and kind: the compiler refuses a kind without a row. */
export const KIND_TRAITS: { readonly [A in ProviderApi]: TraitTable } = { v1: V1, v2: V2 };

export function kindTraits(api: ProviderApi, kind: ConnectorKind): KindTraits {
  return KIND_TRAITS[api][kind];
}
