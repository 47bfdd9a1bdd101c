// Callbacks relayed from plugin threads reach JS through koffi's unref'd threadsafe function, so nothing keeps
// Node's loop alive while we wait for them. A ref'd interval does, for as long as anything is pending.
let holds = 0;
let timer: NodeJS.Timeout | null = null;

export function hold(): void {
  if (holds++ === 0) timer = setInterval(() => {}, 1 << 30);
}

export function release(): void {
  if (holds === 0) return;
  if (--holds === 0 && timer !== null) {
    clearInterval(timer);
    timer = null;
  }
}

export function pendingHolds(): number {
  return holds;
}
