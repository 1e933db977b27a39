/**
 * Runs `work` while sending `beat` every `intervalMs`: kafkajs heartbeats only between batches,
 * so a batch that takes longer than the session timeout would otherwise cost the member its
 * partitions, and the batch would be processed again (by another member, or by this one after
 * its commit is refused), for ever if it always takes that long. A failed beat is only reported,
 * once per call: the commit after the work tells whether the partition is still ours.
 */
export async function whileBeating<T>(
  beat: () => Promise<void>,
  intervalMs: number,
  work: () => Promise<T>,
  onBeatError: (e: unknown) => void,
): Promise<T> {
  let inFlight = false;
  let reported = false;
  const timer = setInterval(() => {
    if (inFlight) return;
    inFlight = true;
    beat()
      .catch((e: unknown) => {
        if (!reported) onBeatError(e);
        reported = true;
      })
      .finally(() => {
        inFlight = false;
      });
  }, intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
