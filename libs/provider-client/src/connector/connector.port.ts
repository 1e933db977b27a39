import {
  type BatchEntry,
  type BatchFormat,
  type CommandData,
  type PayoutKind,
  type PayoutStatus,
  type ProviderApi,
  type ProviderSubState,
  type TransferFee,
} from '#contracts';
import { type ProviderResult } from '../core/outcome.js';
import { type EndpointName } from '../endpoints/adapter-registry.js';
import { type CallOptions } from '../provider-client.js';

/** The payout kinds the connector sends: the contracts' PayoutKind (batches have their own calls). */
export type ConnectorKind = PayoutKind;

/** The decoded command data of a payout of kind K, secrets included. */
export type PayoutRequest<K extends ConnectorKind> = CommandData<`payout.${K}`>;

/** A payout to send: the row's ids and amount, and its command. */
export interface PayoutToSend<K extends ConnectorKind> {
  readonly kind: K;
  readonly transferId: string;
  /** Decimal string, as the ledger keeps it. */
  readonly amount: string;
  readonly request: PayoutRequest<K>;
}

/** What one initiation said, reduced to what the ledger records. */
export interface PayoutSubmitted {
  /** The call's outcome class (the pipeline's decisions branch on it). */
  readonly result: ProviderResult<unknown>;
  readonly referenceId?: string;
  /** The provider's own id of a v2 transfer (`cf_transfer_id`). */
  readonly svcTransferId?: string;
  readonly utr?: string;
  /**
   * The code to keep as the payout's status code when the answer accepts it: v2 the transfer's
   * status code, v1 the answer's code.
   */
  readonly statusCode?: string;
  /**
   * Where a `pending` transfer waits at the provider, when its answer says (issue 29): v1
   * SUCCESS/201 "Scheduled for next working day" (not paid yet), PENDING/201 "pending at the
   * bank", v2 QUEUED, APPROVAL_PENDING, SCHEDULED_FOR_NEXT_WORKINGDAY, SENT_TO_BANK.
   */
  readonly subState?: ProviderSubState;
  /**
   * The provider's fee of the transfer (issue 32), when its answer says: v2 transfer objects carry
   * the service charge and its tax once charged ("0": a known zero); v1 answers carry none.
   */
  readonly fee?: TransferFee;
}

/** What a status endpoint said about a payout it knows, in the ledger's terms. */
export interface PayoutFound {
  /** The ledger status the provider's status maps to; undefined: a status we do not know. */
  readonly status?: PayoutStatus;
  /** The provider's status as sent (kept in last_error / status_code). */
  readonly raw?: string;
  readonly reason?: string;
  readonly utr?: string;
  readonly referenceId?: string;
  /** Where a payout that is not settled waits at the provider, when it says (issue 29). */
  readonly subState?: ProviderSubState;
  /*
   * What the provider holds under the id, to compare with the payout (issue 29: one namespace of
   * transfer ids; the transfer under the id may be another one). Compared, never logged.
   */
  /** The amount as sent (decimal rupees, text). */
  readonly amount?: string;
  /** The beneficiary id the transfer was made to, when it names one. */
  readonly beneId?: string;
  /** v2: the provider's id of the transfer (`cf_transfer_id`). */
  readonly svcTransferId?: string;
  /**
   * The provider's fee of the transfer (issue 32), when its answer says: v2 transfer objects carry
   * the service charge and its tax once charged ("0": a known zero); v1 answers carry none.
   */
  readonly fee?: TransferFee;
}

/** A status call: the payout's state, or the call's own result when it gave none. */
export type PayoutCheck =
  { found: true; answer: PayoutFound } | { found: false; result: ProviderResult<unknown> };

/** How one kind behaves on one generation. */
export interface KindTraits {
  /** The initiation endpoint. */
  readonly initiation: EndpointName;
  /** The status endpoint; null: the provider cannot be asked (a person confirms it). */
  readonly status: EndpointName | null;
  /**
   * Whether the provider recognises a repeat of this kind's id ("already exists", a used token),
   * so that re-sending the same id after an unclear answer can never pay twice.
   */
  readonly resendIsSafe: boolean;
  /** Whether a SUCCESS may still be reversed and the status endpoint would say so. */
  readonly reversalWatch: boolean;
}

export interface BatchToSend {
  readonly batchTransferId: string;
  readonly batchFormat: BatchFormat;
  readonly entries: readonly BatchEntry[];
}

export interface BatchSubmitted {
  readonly result: ProviderResult<unknown>;
  /** The provider's id of the batch (v1 referenceId, v2 cf_batch_transfer_id). */
  readonly referenceId?: string;
  /** The code to keep as a refused batch's status code (v1: the answer's code; v2 keeps none). */
  readonly refusalCode?: string;
}

/** One entry of a batch as the status endpoint sees it. */
export interface BatchEntryState {
  readonly transferId: string;
  /** A PayoutStatus when the provider's status maps to one, else the provider's, upper-cased. */
  readonly status: string;
  readonly referenceId: string | null;
  readonly utr: string | null;
  readonly reason: string | null;
  /** Where an entry that is not settled waits at the provider, when it says (issue 29). */
  readonly subState?: ProviderSubState;
  /** The entry's fee, when the v2 batch status carries it (issue 32). */
  readonly fee?: TransferFee;
}

/** A batch status call: the entries, or the call's own result when it gave none. */
export type BatchCheck =
  | {
      readonly found: true;
      readonly referenceId?: string;
      readonly entries: readonly BatchEntryState[];
    }
  | { readonly found: false; readonly result: ProviderResult<unknown> };

/**
 * The port the pipeline asks, in its own terms: one implementation per API generation. Every
 * method resolves (never rejects).
 */
export interface PayoutConnector {
  readonly api: ProviderApi;
  traits(kind: ConnectorKind): KindTraits;
  submitPayout<K extends ConnectorKind>(p: PayoutToSend<K>, opts: CallOptions): Promise<PayoutSubmitted>;
  /** Asks about a payout by our transferId (never by a re-send). */
  checkPayout(kind: ConnectorKind, transferId: string, opts: CallOptions): Promise<PayoutCheck>;
  submitBatch(batch: BatchToSend, opts: CallOptions): Promise<BatchSubmitted>;
  checkBatch(batchTransferId: string, opts: CallOptions): Promise<BatchCheck>;
}

/** Both generations: the pipeline picks a row's by its `provider_api`. */
export type Connectors = { readonly [A in ProviderApi]: PayoutConnector };
