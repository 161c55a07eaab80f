import type { RouteObject } from 'react-router';

/** Every path the router answers (its catch-all aside): the screens' tests must name each one. */
export function routerPaths(list: RouteObject[], base = ''): string[] {
  return list.flatMap((route) => {
    const path =
      route.index || route.path === undefined
        ? base
        : route.path.startsWith('/')
          ? route.path
          : `${base}/${route.path}`;
    const own = route.index || (route.path !== undefined && route.path !== '*') ? [path] : [];
    return [...own, ...routerPaths(route.children ?? [], path)];
  });
}
