import { randomBytes } from "node:crypto";
import type { ChallengeLevel, MathChallenge } from "@common/challenge.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import {
  answerMac,
  type ChallengeGroup,
  clientMac,
  readChallengeToken,
  sameMac,
  signChallengeToken,
} from "./challenge-token.ts";
import { generateEquation } from "./equations.ts";

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Strikes (excess episodes and wrong answers) are forgotten after this long without a new one. */
const STRIKE_MEMORY_MS = 30 * 60 * 1000;

export type VerifyResult =
  | { ok: true; level: ChallengeLevel }
  | {
      ok: false;
      reason: "invalid" | "expired" | "used" | "incorrect" | "not-a-number";
      challenge: MathChallenge;
    };

const clampLevel = (strikes: number) => Math.min(5, Math.max(1, strikes)) as ChallengeLevel;

/**
 * Issues and checks math challenges. The level follows the client's recent behaviour: each new episode of
 * excess and each wrong answer adds a strike, each correct answer removes one, and strikes fade after 30
 * minutes of good behaviour.
 */
export class ChallengeService {
  constructor(
    private state: SharedState,
    private secret: string,
    private now: () => number = Date.now,
  ) {}

  private strikesKey = (clientKey: string) => `challenge:strikes:${clientKey}`;
  private passKey = (group: ChallengeGroup, clientKey: string) => `challenge:pass:${group}:${clientKey}`;

  /**
   * Spends the pass a solved challenge of `group` left for this client: one solution, one action (a sign-in
   * attempt on a guarded account). True when there was one; concurrent callers cannot both spend it.
   */
  async consumePass(clientKey: string, group: ChallengeGroup): Promise<boolean> {
    return (await this.state.increment(this.passKey(group, clientKey), CHALLENGE_TTL_MS, -1)) >= 0;
  }

  /** Called when a client is refused by a limit: its challenge, one strike more if this excess is new. */
  async challengeForExcess(
    clientKey: string,
    group: ChallengeGroup,
    windowMs: number,
  ): Promise<MathChallenge> {
    const newEpisode = await this.state.setIfAbsent(`challenge:episode:${group}:${clientKey}`, "1", windowMs);
    const strikes = newEpisode
      ? await this.state.increment(this.strikesKey(clientKey), STRIKE_MEMORY_MS)
      : Number((await this.state.get(this.strikesKey(clientKey))) ?? 1);
    return this.issue(clientKey, group, clampLevel(strikes));
  }

  issue(clientKey: string, group: ChallengeGroup, level: ChallengeLevel): MathChallenge {
    const { equation, answer } = generateEquation(level);
    const id = randomBytes(12).toString("base64url");
    const token = signChallengeToken(this.secret, {
      id,
      client: clientMac(this.secret, clientKey),
      group,
      level,
      expiresAt: this.now() + CHALLENGE_TTL_MS,
      answerMac: answerMac(this.secret, id, answer),
    });
    return { token, equation, level };
  }

  /**
   * Checks an answer. A token is spent by any answer to it, right or wrong, so it cannot be tried twice; a
   * refused answer comes with a fresh challenge. On success `onSolved` runs (the caller resets the window).
   */
  async verify(
    clientKey: string,
    token: string,
    response: string,
    onSolved: (group: ChallengeGroup) => Promise<void>,
  ): Promise<VerifyResult> {
    const payload = readChallengeToken(this.secret, token);
    const fresh = async (reason: Exclude<VerifyResult, { ok: true }>["reason"], level: number) => ({
      ok: false as const,
      reason,
      challenge: this.issue(clientKey, payload?.group ?? "general", clampLevel(level)),
    });
    const currentStrikes = async () => Number((await this.state.get(this.strikesKey(clientKey))) ?? 1);

    if (!payload || !sameMac(payload.client, clientMac(this.secret, clientKey))) {
      return fresh("invalid", await currentStrikes());
    }
    if (payload.expiresAt <= this.now()) return fresh("expired", payload.level);
    const trimmed = response.trim();
    if (!/^-?\d{1,12}$/.test(trimmed)) return fresh("not-a-number", payload.level);

    const ttl = payload.expiresAt - this.now() + 1000;
    if (!(await this.state.setIfAbsent(`challenge:used:${payload.id}`, "1", ttl))) {
      return fresh("used", payload.level);
    }
    if (!sameMac(payload.answerMac, answerMac(this.secret, payload.id, Number(trimmed)))) {
      const strikes = await this.state.increment(this.strikesKey(clientKey), STRIKE_MEMORY_MS);
      return fresh("incorrect", strikes);
    }
    const strikes = await this.state.increment(this.strikesKey(clientKey), STRIKE_MEMORY_MS, -1);
    if (strikes < 0) await this.state.set(this.strikesKey(clientKey), "0", STRIKE_MEMORY_MS);
    await this.state.delete(`challenge:episode:${payload.group}:${clientKey}`);
    if (payload.group === "login")
      await this.state.set(this.passKey("login", clientKey), "1", CHALLENGE_TTL_MS);
    await onSolved(payload.group);
    return { ok: true, level: clampLevel(strikes) };
  }
}
