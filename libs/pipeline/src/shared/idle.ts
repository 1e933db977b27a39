/**
 * A worker's wait between polls, cut short by `wake()` (new work was committed meanwhile). A wake
 * that comes while the worker is busy is kept, and its next wait returns at once: the worker looks
 * again instead of sleeping through work committed during its last look.
 */
export class Idle {
  private wakeUp: (() => void) | undefined;
  private pending = false;

  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let t: NodeJS.Timeout | undefined = undefined;
      const done = () => {
        clearTimeout(t);
        if (this.wakeUp === done) this.wakeUp = undefined;
        resolve();
      };
      t = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.pending = true;
  }
}
