import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type FaultSpec, type LateApply, type ResendRefusal } from '../core/faults.js';
import { type EndpointId } from '../core/settings.js';
import { BATCH_ENDPOINTS, initiationKey, knownInitiation, type AccountState } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { hangConnection, resetConnection } from './faults.apply.js';

/**
 * The faults that act on an initiation's id rather than on the HTTP exchange: late apply,
 * status lag and refused re-sends. Shared by the legacy and v2 route wrappers.
 */

/** The refusal a re-send of `id` gets now: this call's fault's (for an id already known), else the id's mark. */
export function resendRefusal(
  account: AccountState,
  endpoint: EndpointId,
  id: string | undefined,
  fault: FaultSpec | undefined,
): ResendRefusal | undefined {
  if (id === undefined) return undefined;
  if (fault?.refuseResend && knownInitiation(account, endpoint, id)) return fault.refuseResend;
  return account.refuseResend.get(initiationKey(endpoint, id));
}

/**
 * After the handler: when this request applied `id` (an accepted initiation logged since
 * `since`), the fault's status lag and re-send refusal are attached to what it applied.
 */
export function markApplied(
  world: SandboxWorld,
  account: AccountState,
  endpoint: EndpointId,
  id: string | undefined,
  fault: FaultSpec | undefined,
  since: number,
): void {
  if (!fault || id === undefined) return;
  if (fault.statusLagMs === undefined && fault.refuseResend === undefined) return;
  if (!account.received.slice(since).some((r) => r.accepted && r.transferId === id)) return;
  if (fault.statusLagMs !== undefined && fault.statusLagMs > 0) {
    const visibleAt = world.clock.now() + fault.statusLagMs;
    const applied = BATCH_ENDPOINTS.includes(endpoint)
      ? account.batches.get(id)
      : endpoint === 'internalTransfer'
        ? account.internalTransfers.get(id)
        : account.transfers.get(id);
    if (applied) applied.visibleAt = visibleAt;
  }
  if (fault.refuseResend) account.refuseResend.set(initiationKey(endpoint, id), fault.refuseResend);
}

/**
 * Runs `apply` once the sandbox clock reaches now + `ms` (unless the account is reset or the
 * sandbox closes first), listed in `world.lateApplies` until then.
 */
export function scheduleLateApply(
  world: SandboxWorld,
  endpoint: EndpointId,
  id: string | undefined,
  ms: number,
  apply: () => Promise<void>,
): void {
  const now = world.clock.now();
  const entry: LateApply = { endpoint, id: id ?? '', receivedAt: now, at: now + ms };
  world.lateApplies.add(entry);
  void world.at(entry.at, world.account, apply).finally(() => world.lateApplies.delete(entry));
}

/** What the caller of a late-applied request gets now: nothing, a reset, or a 5xx. */
export function answerLater(
  req: FastifyRequest,
  reply: FastifyReply,
  answer: FaultSpec['applyLaterAnswer'],
  sendStatus: (status: number) => void,
): void {
  if (answer === 'reset') resetConnection(req, reply);
  else if (typeof answer === 'number') sendStatus(answer);
  else hangConnection(reply);
}
