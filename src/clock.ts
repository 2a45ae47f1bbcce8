/** Milliseconds since the epoch. Injected everywhere the service reads time, so tests can move it. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
