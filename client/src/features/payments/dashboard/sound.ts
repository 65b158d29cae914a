import * as React from "react";

/** "off" when the merchant turned the sound off; anything else means on (the default). */
const SOUND_KEY = "cpxtb-pay-sound";

let shared: AudioContext | null = null;
const onStateChange = new Set<() => void>();

/**
 * The page's AudioContext, created at the first click or key (`create`), not when the dashboard renders: before a
 * gesture it could only start suspended, and creating it starts the browser's audio thread on every dashboard load
 * (about 10 ms of a phone's main thread before the first paint).
 */
function audioContext(create: boolean): AudioContext | null {
  if (!shared && create && typeof AudioContext !== "undefined") {
    try {
      shared = new AudioContext();
      shared.addEventListener("statechange", () => {
        for (const listener of onStateChange) listener();
      });
    } catch {
      return null;
    }
  }
  return shared;
}

function wanted(): boolean {
  try {
    return window.localStorage.getItem(SOUND_KEY) !== "off";
  } catch {
    return true;
  }
}

function remember(on: boolean) {
  try {
    window.localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // Private mode: the choice lasts as long as the page.
  }
}

/** A short chime with WebAudio (no audio file): rising for paid, two low notes for partial. */
export function playChime(kind: "completed" | "partial") {
  const context = audioContext(false);
  if (context?.state !== "running" || !wanted()) return;
  const notes = kind === "completed" ? [660, 880, 1320] : [440, 330];
  for (const [i, frequency] of notes.entries()) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    const start = context.currentTime + i * 0.14;
    oscillator.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.3);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start);
    oscillator.stop(start + 0.32);
  }
}

/**
 * Whether the payment chime can be heard, and the switch for it. Browsers keep audio suspended until the page has
 * had a click or a key; with sound wanted (the remembered choice), the first one anywhere starts it, and the
 * control offers "Enable sound" until then.
 */
export function useSound(): { on: boolean; enable: () => void; disable: () => void } {
  const [, rerender] = React.useReducer((n: number) => n + 1, 0);
  React.useEffect(() => {
    onStateChange.add(rerender);
    const start = () => {
      if (!wanted()) return;
      const context = audioContext(true);
      if (context?.state === "suspended") void context.resume();
    };
    window.addEventListener("pointerdown", start, true);
    window.addEventListener("keydown", start, true);
    return () => {
      onStateChange.delete(rerender);
      window.removeEventListener("pointerdown", start, true);
      window.removeEventListener("keydown", start, true);
    };
  }, []);
  const context = audioContext(false);
  return {
    on: Boolean(context && context.state === "running" && wanted()),
    enable: () => {
      remember(true);
      void audioContext(true)?.resume().then(rerender);
      rerender();
    },
    disable: () => {
      remember(false);
      rerender();
    },
  };
}
