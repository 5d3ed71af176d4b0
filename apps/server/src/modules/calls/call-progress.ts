/**
 * Saves a live call's transcript as it grows, one write at a time: marks made while a write runs
 * fold into the next one, so a chatty call costs at most one small write in flight.
 */
export class ProgressSaver {
  private dirty = false;
  private running: Promise<void> | null = null;

  constructor(
    private readonly save: () => Promise<void>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Something worth keeping was said. */
  mark(): void {
    this.dirty = true;
    this.running ??= this.drain();
  }

  /** Resolves once no write is pending (before the call's log is closed). */
  async settle(): Promise<void> {
    await this.running;
  }

  private async drain(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await this.save();
      } catch (error) {
        this.onError(error);
      }
    }
    this.running = null;
  }
}
