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
import { entryStatus } from '../core/status-mapping.js';
import { checkBy, commonRequest, type Outgoing, send } from './shared-calls.js';

/** The legacy API (v1): bearer token, camelCase bodies, subCode tables. */
export class V1Connector implements PayoutConnector {
  readonly api = 'v1' as const;

  constructor(private readonly client: ProviderClient) {}

  traits(kind: ConnectorKind): KindTraits {
    return kindTraits(this.api, kind);
  }

  submitPayout<K extends ConnectorKind>(p: PayoutToSend<K>, opts: CallOptions): Promise<PayoutSubmitted> {
    return send(this.client, this.request(p), opts);
  }

  private request<K extends ConnectorKind>(p: PayoutToSend<K>): Outgoing {
    switch (p.kind) {
      case 'standard_transfer': {
        const q = (p as PayoutToSend<'standard_transfer'>).request;
        return {
          name: 'requestTransfer',
          request: {
            transferId: p.transferId,
            beneId: q.beneId,
            amount: p.amount,
            transferMode: q.transferMode,
            paymentInstrumentId: q.paymentInstrumentId,
            remarks: q.remarks,
          },
        };
      }
      case 'direct_transfer': {
        const q = (p as PayoutToSend<'direct_transfer'>).request;
        return {
          name: 'directTransfer',
          request: {
            transferId: p.transferId,
            amount: p.amount,
            transferMode: q.transferMode,
            paymentInstrumentId: q.paymentInstrumentId,
            beneDetails: q.beneDetails,
          },
        };
      }
      default:
        return commonRequest(
          p as PayoutToSend<Exclude<ConnectorKind, 'standard_transfer' | 'direct_transfer'>>,
        );
    }
  }

  checkPayout(kind: ConnectorKind, transferId: string, opts: CallOptions): Promise<PayoutCheck> {
    return checkBy(this.traits(kind).status, this.client, transferId, opts);
  }

  async submitBatch(b: BatchToSend, opts: CallOptions): Promise<BatchSubmitted> {
    const r = await this.client.call(
      'requestBatchTransfer',
      { batchTransferId: b.batchTransferId, batchFormat: b.batchFormat, batch: b.entries },
      opts,
    );
    const referenceId = 'data' in r ? r.data?.referenceId : undefined;
    const code = r.diagnostics.evidence;
    return { result: r, ...(referenceId ? { referenceId } : {}), ...(code ? { refusalCode: code } : {}) };
  }

  async checkBatch(batchTransferId: string, opts: CallOptions): Promise<BatchCheck> {
    const r = await this.client.call('getBatchTransferStatus', { batchTransferId }, opts);
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
