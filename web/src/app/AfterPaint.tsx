// Parts of the page that are below the fold on a phone, mounted after the page's first paint
// there instead of in the first render: the first render (one long task on a slow phone)
// builds only what the first view shows, and each deferred part mounts in a task of its own
// afterwards, one after another. They sit at the bottom of the one-column layout, so nothing on
// screen moves when they arrive. On wider screens (where they are in view), in tests and
// without matchMedia, they mount at once. Until every part has mounted, the page does not
// count as idle (scheduler.ts holdIdle), so "drawn" still means every plot is drawn.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { holdIdle } from '../plots/core/scheduler';
import { narrowLayout } from './layout';

/** Mounts waiting to run, in page order; one per task. */
const queue: (() => void)[] = [];
let scheduled = false;

function runNext() {
  scheduled = false;
  const next = queue.shift();
  if (!next) return;
  next();
  schedule();
}

function schedule() {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  // After the next frame has been painted: a frame, then a task.
  requestAnimationFrame(() => setTimeout(runNext, 0));
}

/** Renders `children` after the first paint on a phone, at once elsewhere. */
export function AfterPaint({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(() => !narrowLayout());
  /** Holds the page's idle signal from the first render until the children have mounted. */
  const hold = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (shown) {
      // The children's effects (their plots' first draw requests) have run: let go.
      hold.current?.();
      hold.current = null;
      return;
    }
    let live = true;
    hold.current ??= holdIdle();
    queue.push(() => {
      if (live) setShown(true);
    });
    schedule();
    return () => {
      live = false;
    };
  }, [shown]);
  useEffect(
    () => () => {
      hold.current?.();
      hold.current = null;
    },
    [],
  );
  return shown ? children : null;
}
