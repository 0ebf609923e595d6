import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { loadCatalogue, storedLanguage } from './shared/i18n/index.ts';
import './app/global.css';

const root = document.getElementById('root');
if (root) {
  // only the active language's messages (a switch reloads the page); index.html has already asked for them
  void loadCatalogue(storedLanguage()).then(() =>
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
}
