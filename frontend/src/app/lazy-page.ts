import { ComponentType, lazy, LazyExoticComponent } from 'react';

/** React.lazy for a module's named page export (pages use named exports, lazy() wants a default). */
export function lazyPage<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): LazyExoticComponent<ComponentType> {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}
