import { ExceptionPage } from './pages/exception-page.tsx';

export function NotFoundPage() {
  return <ExceptionPage status="404" />;
}
