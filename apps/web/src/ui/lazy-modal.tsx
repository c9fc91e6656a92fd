import { lazy, Suspense, useState, type ComponentType } from 'react';

/**
 * A dialog whose code loads when it is first opened, then stays mounted (its close animation and state
 * work as before): a page that only may open a dialog does not pay for Modal, its focus trap and its
 * form up front (issue 14: initial JavaScript).
 */
export function lazyModal<P extends { opened: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazy(() => load().then((component) => ({ default: component })));
  function LazyModal(props: P) {
    const [used, setUsed] = useState(false);
    if (props.opened && !used) setUsed(true);
    if (!used) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  }
  return LazyModal;
}
