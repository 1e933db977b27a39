import { formatPaise, parseAmount, rupees } from '../core/money.js';
import { type BatchRecord } from '../core/state.js';
import { bankOutcome, FAILING_WALLET_PHONE, vpaOutcome, type Outcome } from '../core/test-data.js';
import { type SandboxWorld } from '../core/world.js';
import { REQUEST_TRANSFER } from '../tables/request-transfer.table.js';
import { RowAnswer } from '../tables/row.js';
import { BANK_MODES, recordTransfer, WALLET_MODES } from './transfer-flow.js';

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

/**
 * Processes a batch's entries once the sandbox clock passes its processing time. Each entry
 * goes through the same transfer rules as requestTransfer; a refused entry is recorded with
 * the refusal message as its reason, and a TRANSFER_REJECTED webhook (all refused: also
 * BULK_TRANSFER_REJECTED, v2).
 */
export function processBatchIfDue(world: SandboxWorld, batch: BatchRecord): void {
  if (batch.processed || world.clock.now() < batch.processAt) return;
  batch.processed = true;
  const account = world.account;
  for (const e of batch.entries) {
    const transferId = str(e.transferId);
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
      // Entries of a batch the status endpoints do not show yet are not shown either.
      if (batch.visibleAt !== undefined) record.visibleAt = Math.max(record.visibleAt ?? 0, batch.visibleAt);
      batch.results.push({ entry: e, transferId, record, reason: '' });
    } catch (err) {
      if (!(err instanceof RowAnswer)) throw err;
      account.receive('requestBatchTransfer', transferId, false, err.row.subCode);
      batch.results.push({ entry: e, transferId, record: undefined, reason: err.row.message });
      const amount = parseAmount(e.amount);
      world.webhooks.emit({
        kind: 'transfer',
        type: 'TRANSFER_REJECTED',
        at: world.clock.now(),
        transferId,
        referenceId: '',
        utr: '',
        acknowledged: 0,
        reason: err.row.message,
        status: 'REJECTED',
        amount: formatPaise(amount && amount.decimals <= 2 ? amount.paise : 0n),
      });
    }
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
 * The provider processes a batch on its own once the delay passes (not when someone asks), so
 * its entries' webhooks go out without a status call.
 */
export function scheduleBatch(world: SandboxWorld, batch: BatchRecord): void {
  void world.at(batch.processAt, world.account, () => processBatchIfDue(world, batch));
}
