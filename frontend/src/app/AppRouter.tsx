import { Route, Routes } from 'react-router-dom';
import { RequireAuth } from '../auth/RequireAuth';
import { AppLayout } from './AppLayout';
import { AppRoute, ROUTES } from './routes';
import { useRouteTitle } from './usePageTitle';

function RouteScreen({ route }: { route: AppRoute }) {
  useRouteTitle(route.title);
  const { Page } = route;
  return route.guarded ? (
    <RequireAuth>
      <Page />
    </RequireAuth>
  ) : (
    <Page />
  );
}

export function AppRouter() {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {ROUTES.map((route) => (
          <Route
            key={route.path}
            path={route.path}
            element={<RouteScreen key={route.path} route={route} />}
          />
        ))}
      </Route>
    </Routes>
  );
}
