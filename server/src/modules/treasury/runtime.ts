import type { FastifyBaseLogger } from "fastify";
import type { Database, DatabaseLock } from "../../db/client.ts";
import type { Treasury } from "./treasury.ts";

/** Any fixed 64-bit number: the one treasury sender (and purchase scanner) across instances. */
const TREASURY_LOCK_ID = 7_301_155_220_013n;

export type TreasuryJob = { name: string; run(): Promise<void> };

/**
 * Runs the treasury queue and the jobs that feed it (the purchase scanner) on the one instance that holds the
 * treasury lock; the queue's rows are also claimed with FOR UPDATE SKIP LOCKED, so even two runners cannot sign
 * one send twice.
 */
export class TreasuryRuntime {
  private lock: DatabaseLock | null = null;
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private running: Promise<void> | null = null;
  private readonly jobs: TreasuryJob[] = [];

  constructor(
    readonly treasury: Treasury,
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    private readonly pollMs: number,
  ) {}

  addJob(job: TreasuryJob) {
    this.jobs.push(job);
  }

  get isLeader() {
    return this.lock !== null;
  }

  start() {
    if (this.started) return;
    this.started = true;
    this.schedule(0);
  }

  private schedule(delayMs: number) {
    if (!this.started) return;
    this.timer = setTimeout(() => {
      this.running = this.pass().finally(() => {
        this.running = null;
        this.schedule(this.pollMs);
      });
    }, delayMs);
    this.timer.unref();
  }

  private async pass() {
    try {
      if (this.lock && !(await this.lock.check())) {
        this.log.warn({}, "treasury lock lost");
        this.lock = null;
      }
      if (!this.lock) {
        this.lock = await this.database.tryLock(TREASURY_LOCK_ID);
        if (this.lock) this.log.info({ treasury: this.treasury.address }, "treasury: this instance sends");
      }
      if (!this.lock) return;
      await this.runOnce();
    } catch (error) {
      this.log.warn({ err: error }, "treasury pass failed");
    }
  }

  /** One pass of every job then the queue (tests call it directly). */
  async runOnce() {
    for (const job of this.jobs) {
      try {
        await job.run();
      } catch (error) {
        this.log.warn({ err: error, job: job.name }, "treasury job failed");
      }
    }
    await this.treasury.tick();
  }

  async stop() {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
    const lock = this.lock;
    this.lock = null;
    await lock?.release();
  }
}
