import { batchView, historyView, type BatchView, type HistoryView } from '../../operations.views.js';
import { type OperationsPorts } from '../operations.ports.js';
import { findBatch, type BatchRef } from '../shared/refs.js';

/** A batch's state changes and its entries'. */
export class BatchTimeline {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'batches' | 'history'>) {}

  async execute(ref: BatchRef): Promise<{ batch: BatchView; history: HistoryView[] }> {
    const row = await findBatch(this.d, ref);
    const history = await this.d.history.ofSubject(this.d.pool, 'batch', row.id, row.createdAt);
    return { batch: batchView(row), history: history.map(historyView) };
  }
}
