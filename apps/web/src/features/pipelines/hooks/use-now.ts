import { useEffect, useState } from 'react';

/** The current time, ticking every second while `live` (running durations). */
export function useNow(live: boolean, everyMs = 1000) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [live, everyMs]);
  return now;
}
