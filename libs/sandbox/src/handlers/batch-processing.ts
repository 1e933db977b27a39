import { formatPaise, parseAmount, rupees } from '../core/money.js';
import { type BatchRecord, type TransferRecord } from '../core/state.js';
import { bankOutcome, FAILING_WALLET_PHONE, vpaOutcome, type Outcome } from '../core/test-data.js';
import { type EndpointId } from '../core/settings.js';
import { type SandboxWorld } from '../core/world.js';
import { REQUEST_TRANSFER } from '../tables/request-transfer.table.js';
import { RowAnswer } from '../tables/row.js';
import { V2_BATCH_ENTRY_FIELDS } from '../tables/batch-transfer-v2.table.js';
import { V2_STANDARD_TRANSFER } from '../tables/transfer-v2.table.js';
import { failV2, V2Answer } from '../tables/v2-common.table.js';
import { type Obj } from './endpoint.js';
import { BANK_MODES, recordTransfer, WALLET_MODES } from './transfer-flow.js';
import { decodeV2Transfer, resolveV2Instrument, v2Outcome } from './v2-transfer-flow.js';
import { recordV2Transfer } from './v2-transfer-record.js';

/** The `format` of a Batch Transfer V2 record (entries in the v2 transfer shape). */
export const V2_BATCH_FORMAT = 'V2';

/** The transfer mode a batch format restricts entries to (BENEFICIARY_ID: the entry's own). */
export const FORMAT_MODES: Readonly<Record<string, string>> = {
  BANK_ACCOUNT: 'banktransfer',
  UPI: 'upi',
  WALLET_A: 'wallet_a',
  WALLET_B: 'wallet_b',
};

export const REQUIRED_BY_FORMAT: Readonly<Record<string, readonly string[]>> = {
  BENEFICIARY_ID: ['transferId', 'amount', 'beneId', 'transferMode'],
  BANK_ACCOUNT: ['transferId', 'amount', 'bankAccount', 'ifsc', 'name', 'phone'],
  UPI: ['transferId', 'amount', 'vpa', 'name'],
  WALLET_A: ['transferId', 'amount', 'phone', 'name'],
  WALLET_B: ['transferId', 'amount', 'phone', 'name'],
};

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function entryOutcome(
  mode: string,
  d: { bankAccount: string; ifsc: string; vpa: string; phone: string },
): Outcome {
  if (mode === 'upi') return vpaOutcome(d.vpa);
  if (WALLET_MODES.includes(mode)) return d.phone === FAILING_WALLET_PHONE ? 'bankFailed' : 'success';
  return bankOutcome(d.bankAccount, d.ifsc);
}

type EntryResult =
  | { readonly record: TransferRecord }
  | { readonly refused: { readonly message: string; readonly code: string; readonly answer: string } };

/** A v1 entry, through the same transfer rules as requestTransfer. */
function commitLegacyEntry(world: SandboxWorld, batch: BatchRecord, e: Obj, transferId: string): EntryResult {
  const account = world.account;
  try {
    const bene = batch.format === 'BENEFICIARY_ID' ? account.beneficiaries.get(str(e.beneId)) : undefined;
    if (batch.format === 'BENEFICIARY_ID' && !bene) throw new RowAnswer(REQUEST_TRANSFER.beneNotFound);
    const mode = FORMAT_MODES[batch.format] ?? str(e.transferMode);
    const details = bene ?? {
      bankAccount: str(e.bankAccount),
      ifsc: str(e.ifsc),
      vpa: str(e.vpa),
      phone: str(e.phone),
    };
    const amount = parseAmount(e.amount);
    if (!amount || amount.decimals > 2 || amount.paise < rupees(1)) {
      throw new RowAnswer(REQUEST_TRANSFER.amountBelowOne);
    }
    const { record } = recordTransfer(
      world,
      {
        endpoint: 'requestBatchTransfer',
        transferId,
        amount: amount.paise,
        mode,
        beneId: str(e.beneId),
        bankAccount: BANK_MODES.includes(mode) ? details.bankAccount : '',
        ifsc: BANK_MODES.includes(mode) ? details.ifsc : '',
        vpa: mode === 'upi' ? details.vpa : '',
        phone: details.phone,
        remarks: str(e.remarks),
        paymentInstrumentId: '',
        outcome: entryOutcome(mode, details),
      },
      REQUEST_TRANSFER,
    );
    return { record };
  } catch (err) {
    if (!(err instanceof RowAnswer)) throw err;
    return { refused: { message: err.row.message, code: '', answer: err.row.subCode } };
  }
}

/** A v2 entry (checked field by field when the batch was accepted), as a Standard Transfer V2. */
function commitV2Entry(world: SandboxWorld, e: Obj, transferId: string): EntryResult {
  const account = world.account;
  try {
    const draft = decodeV2Transfer(e, V2_BATCH_ENTRY_FIELDS);
    if (account.transfers.has(transferId)) failV2(V2_STANDARD_TRANSFER.transferIdExists);
    const instrument = resolveV2Instrument(account.beneficiaries, draft, V2_ENTRY_ROWS);
    const outcome = v2Outcome(draft.mode, instrument);
    if (outcome === 'beneNotFound') failV2(V2_STANDARD_TRANSFER.beneNotFound);
    return { record: recordV2Transfer(world, 'batchTransferV2', draft, instrument, outcome) };
  } catch (err) {
    if (!(err instanceof V2Answer)) throw err;
    const code = err.row.code.replace('transfers[i].', '');
    return { refused: { message: err.row.message, code, answer: err.row.code } };
  }
}

const V2_ENTRY_ROWS = {
  fields: V2_BATCH_ENTRY_FIELDS,
  beneNotFound: V2_STANDARD_TRANSFER.beneNotFound,
  transferIdExists: V2_STANDARD_TRANSFER.transferIdExists,
};

/** The transfer ids of a batch's entries (v1 `transferId`, v2 `transfer_id`). */
function entryIds(batch: BatchRecord): string[] {
  const key = batch.format === V2_BATCH_FORMAT ? 'transfer_id' : 'transferId';
  return batch.entries.map((e) => str(e[key])).filter((id) => id !== '');
}

/**
 * Processes a batch's entries once the sandbox clock passes its processing time. Each entry
 * goes through the same transfer rules as a single transfer of its generation (v1:
 * requestTransfer, v2: Standard Transfer V2); a refused entry is recorded with the refusal
 * message as its reason, and a TRANSFER_REJECTED webhook (all refused: also
 * BULK_TRANSFER_REJECTED, v2).
 */
export function processBatchIfDue(world: SandboxWorld, batch: BatchRecord): void {
  if (batch.processed || world.clock.now() < batch.processAt) return;
  batch.processed = true;
  const account = world.account;
  const v2 = batch.format === V2_BATCH_FORMAT;
  for (const id of entryIds(batch))
    if (account.batchEntryIds.get(id) === batch) account.batchEntryIds.delete(id);
  for (const e of batch.entries) {
    const transferId = str(v2 ? e.transfer_id : e.transferId);
    const result = v2 ? commitV2Entry(world, e, transferId) : commitLegacyEntry(world, batch, e, transferId);
    if ('record' in result) {
      const record = result.record;
      // Entries of a batch the status endpoints do not show yet are not shown either.
      if (batch.visibleAt !== undefined) record.visibleAt = Math.max(record.visibleAt ?? 0, batch.visibleAt);
      batch.results.push({ entry: e, transferId, record, reason: '' });
      continue;
    }
    const { message, code, answer } = result.refused;
    account.receive(v2 ? 'batchTransferV2' : 'requestBatchTransfer', transferId, false, answer);
    batch.results.push({ entry: e, transferId, record: undefined, reason: message, ...(v2 ? { code } : {}) });
    const amount = parseAmount(v2 ? e.transfer_amount : e.amount);
    world.webhooks.emit({
      kind: 'transfer',
      type: 'TRANSFER_REJECTED',
      at: world.clock.now(),
      transferId,
      referenceId: '',
      utr: '',
      acknowledged: 0,
      reason: message,
      status: 'REJECTED',
      amount: formatPaise(amount && amount.decimals <= 2 ? amount.paise : 0n),
    });
  }
  const first = batch.results[0];
  if (first && batch.results.every((r) => r.record === undefined)) {
    world.webhooks.emit({
      kind: 'bulk',
      type: 'BULK_TRANSFER_REJECTED',
      at: world.clock.now(),
      batchTransferId: batch.batchTransferId,
      svcBatchTransferId: String(batch.referenceId),
      reason: first.reason,
    });
  }
}

/**
 * Takes a batch in (either API generation): a record processed after the account's batch delay,
 * the initiation counted as accepted, and its processing scheduled. Returns the record.
 */
export function acceptBatch(
  world: SandboxWorld,
  endpoint: EndpointId,
  answer: string,
  b: Pick<BatchRecord, 'batchTransferId' | 'format' | 'entries'>,
): BatchRecord {
  const now = world.clock.now();
  const batch: BatchRecord = {
    ...b,
    referenceId: world.account.newReferenceId(),
    addedOn: now,
    processAt: now + world.batchDelayMs,
    processed: false,
    results: [],
  };
  world.account.batches.set(b.batchTransferId, batch);
  // Its entries' ids are taken from now on (one namespace with single transfers).
  for (const id of entryIds(batch))
    if (!world.account.batchEntryIds.has(id)) world.account.batchEntryIds.set(id, batch);
  world.account.receive(endpoint, b.batchTransferId, true, answer);
  scheduleBatch(world, batch);
  return batch;
}

/**
 * The provider processes a batch on its own once the delay passes (not when someone asks), so
 * its entries' webhooks go out without a status call.
 */
export function scheduleBatch(world: SandboxWorld, batch: BatchRecord): void {
  void world.at(batch.processAt, world.account, () => processBatchIfDue(world, batch));
}
