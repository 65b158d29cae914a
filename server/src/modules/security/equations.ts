import { randomInt } from "node:crypto";
import type { ChallengeLevel } from "@common/challenge.ts";

export type Equation = { equation: string; answer: number };

type Op = "+" | "-" | "×" | "÷";
const between = (min: number, max: number) => randomInt(min, max + 1);
const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)]!;

/** One operation with an integer, non-negative result; ÷ only when exact. */
function operate(op: Op, max: number, left?: number): { text: string; value: number; a: number } {
  const a = left ?? between(1, max);
  switch (op) {
    case "+": {
      const b = between(1, max);
      return { text: `${a} + ${b}`, value: a + b, a };
    }
    case "-": {
      const b = between(1, max);
      // Keep answers non-negative: easier to type on a phone's numeric keypad, no sign confusion.
      return a >= b ? { text: `${a} - ${b}`, value: a - b, a } : { text: `${b} - ${a}`, value: b - a, a: b };
    }
    case "×": {
      const b = between(1, max);
      return { text: `${a} × ${b}`, value: a * b, a };
    }
    case "÷": {
      const divisor = between(2, Math.min(12, max));
      const quotient = between(1, max);
      return { text: `${divisor * quotient} ÷ ${divisor}`, value: quotient, a: divisor * quotient };
    }
  }
}

/**
 * Level 1 Easy: additions 1-10. 2 Basic: additions and subtractions 1-20. 3 Medium: adds multiplication 1-20.
 * 4 Hard: adds exact division. 5 Extreme: two operations of all four with numbers 1-50, grouped by parentheses
 * so there is no precedence to guess. Every answer is a non-negative integer.
 */
export function generateEquation(level: ChallengeLevel): Equation {
  switch (level) {
    case 1: {
      const { text, value } = operate("+", 10);
      return { equation: text, answer: value };
    }
    case 2: {
      const { text, value } = operate(pick(["+", "-"] as const), 20);
      return { equation: text, answer: value };
    }
    case 3: {
      const { text, value } = operate(pick(["+", "-", "×"] as const), 20);
      return { equation: text, answer: value };
    }
    case 4: {
      const { text, value } = operate(pick(["+", "-", "×", "÷"] as const), 20);
      return { equation: text, answer: value };
    }
    case 5: {
      const first = operate(pick(["+", "-", "×", "÷"] as const), 50);
      const secondOp = pick(["+", "-", "×"] as const);
      const c = between(1, secondOp === "×" ? 12 : 50);
      if (secondOp === "-" && first.value < c) {
        return { equation: `${c} - (${first.text})`, answer: c - first.value };
      }
      const value = secondOp === "+" ? first.value + c : secondOp === "-" ? first.value - c : first.value * c;
      return { equation: `(${first.text}) ${secondOp} ${c}`, answer: value };
    }
  }
}
