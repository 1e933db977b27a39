import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type FaultSpec } from '../core/faults.js';
import { type SandboxWorld } from '../core/world.js';

export type FaultAnswer =
  | { readonly kind: 'continue' }
  | { readonly kind: 'done' }
  | { readonly kind: 'http'; readonly status: number }
  | { readonly kind: 'rateLimited' }
  | { readonly kind: 'subCode520'; readonly rowKey: string | undefined };

/** Drops the connection without an answer. */
export function resetConnection(req: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  req.raw.socket.destroy();
}

/** Keeps the connection open and never answers; closing the sandbox ends it. */
export function hangConnection(reply: FastifyReply): void {
  reply.hijack();
}

/** The part of a fault that acts before the handler runs. */
export async function applyFaultBefore(
  world: SandboxWorld,
  fault: FaultSpec | undefined,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FaultAnswer> {
  if (!fault) return { kind: 'continue' };
  if (fault.burst429 !== undefined && fault.burst429 > 0) return { kind: 'rateLimited' };
  if (fault.reset) {
    resetConnection(req, reply);
    return { kind: 'done' };
  }
  if (fault.latencyMs !== undefined && fault.latencyMs > 0) await world.clock.sleep(fault.latencyMs);
  if (fault.hang) {
    hangConnection(reply);
    return { kind: 'done' };
  }
  if (fault.httpStatus !== undefined) return { kind: 'http', status: fault.httpStatus };
  if (fault.subCode520 !== undefined && fault.subCode520 !== false) {
    return {
      kind: 'subCode520',
      rowKey: typeof fault.subCode520 === 'string' ? fault.subCode520 : undefined,
    };
  }
  return { kind: 'continue' };
}

/**
 * After the handler changed state: lose the answer ('lost'), replace it with a 5xx, or hold it
 * back for a while before it is sent ('send').
 */
export async function applyFaultAfter(
  world: SandboxWorld,
  fault: FaultSpec | undefined,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<
  | { readonly kind: 'lost' }
  | { readonly kind: 'send' }
  | { readonly kind: 'http'; status: number }
  | { readonly kind: 'subCode520'; readonly rowKey: string | undefined }
> {
  if (!fault) return { kind: 'send' };
  if (fault.loseAnswer) {
    if (fault.loseAnswer === 'reset') resetConnection(req, reply);
    else hangConnection(reply);
    return { kind: 'lost' };
  }
  if (fault.applyThenLatencyMs !== undefined && fault.applyThenLatencyMs > 0) {
    await world.clock.sleep(fault.applyThenLatencyMs);
  }
  if (fault.applyThenStatus !== undefined) return { kind: 'http', status: fault.applyThenStatus };
  // A 520 fault that applied the request first (`applyRate`).
  if (fault.applyThen520 !== undefined && fault.applyThen520 !== false) {
    return {
      kind: 'subCode520',
      rowKey: typeof fault.applyThen520 === 'string' ? fault.applyThen520 : undefined,
    };
  }
  return { kind: 'send' };
}
