import { type CallOptions, type ProviderClient } from '../provider-client.js';
import {
  type BatchCheck,
  type BatchSubmitted,
  type BatchToSend,
  type ConnectorKind,
  type KindTraits,
  type PayoutCheck,
  type PayoutConnector,
  type PayoutSubmitted,
  type PayoutToSend,
} from './connector.port.js';
import { kindTraits } from './kind-traits.js';
import { checkBy } from './status-check.js';
import { legacySent, sendCommon } from './shared-calls.js';
import { entryStatus } from './status-mapping.js';

/** The legacy API (v1): bearer token, camelCase bodies, subCode tables. */
export class V1Connector implements PayoutConnector {
  readonly api = 'v1' as const;

  constructor(private readonly client: ProviderClient) {}

  traits(kind: ConnectorKind): KindTraits {
    return kindTraits(this.api, kind);
  }

  submitPayout<K extends ConnectorKind>(p: PayoutToSend<K>, opts: CallOptions): Promise<PayoutSubmitted> {
    const c = this.client;
    switch (p.kind) {
      case 'standard_transfer': {
        const q = (p as PayoutToSend<'standard_transfer'>).request;
        return legacySent(
          c.requestTransfer(
            {
              transferId: p.transferId,
              beneId: q.beneId,
              amount: p.amount,
              transferMode: q.transferMode,
              paymentInstrumentId: q.paymentInstrumentId,
              remarks: q.remarks,
            },
            opts,
          ),
        );
      }
      case 'direct_transfer': {
        const q = (p as PayoutToSend<'direct_transfer'>).request;
        return legacySent(
          c.directTransfer(
            {
              transferId: p.transferId,
              amount: p.amount,
              transferMode: q.transferMode,
              paymentInstrumentId: q.paymentInstrumentId,
              beneDetails: q.beneDetails,
            },
            opts,
          ),
        );
      }
      default:
        return sendCommon(
          c,
          p as PayoutToSend<Exclude<ConnectorKind, 'standard_transfer' | 'direct_transfer'>>,
          opts,
        );
    }
  }

  checkPayout(kind: ConnectorKind, transferId: string, opts: CallOptions): Promise<PayoutCheck> {
    return checkBy(this.traits(kind).status, this.client, transferId, opts);
  }

  async submitBatch(b: BatchToSend, opts: CallOptions): Promise<BatchSubmitted> {
    const r = await this.client.requestBatchTransfer(
      { batchTransferId: b.batchTransferId, batchFormat: b.batchFormat, batch: b.entries },
      opts,
    );
    const referenceId = 'data' in r ? r.data?.referenceId : undefined;
    return { result: r, ...(referenceId ? { referenceId } : {}) };
  }

  async checkBatch(batchTransferId: string, opts: CallOptions): Promise<BatchCheck> {
    const r = await this.client.getBatchTransferStatus({ batchTransferId }, opts);
    if (r.outcome !== 'success' || !r.data) return { found: false, result: r };
    return {
      found: true,
      ...(r.data.referenceId === undefined ? {} : { referenceId: String(r.data.referenceId) }),
      entries: r.data.transfers.map((t) => ({
        ...entryStatus(t.status),
        transferId: t.transferId,
        referenceId: t.referenceId === undefined ? null : String(t.referenceId),
        utr: t.utr || null,
        reason: t.reason ?? null,
      })),
    };
  }
}
