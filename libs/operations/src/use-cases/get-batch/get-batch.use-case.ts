import { batchView, type BatchView } from '../../operations.views.js';
import { type OperationsPorts } from '../operations.ports.js';
import { findBatch, type BatchRef } from '../shared/refs.js';

/** One batch with its entries, masked. */
export class GetBatch {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'batches'>) {}

  async execute(ref: BatchRef): Promise<BatchView> {
    const row = await findBatch(this.d, ref);
    const items = await this.d.batches.items(this.d.pool, row.id);
    return batchView(row, items);
  }
}
