import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';
import './layout/layout.css';
import { useLab } from '../store/labStore';

// The store on window, for tests and for researchers at the console (read state, call actions).
(window as unknown as { orchestraLab: typeof useLab }).orchestraLab = useLab;

// A shared link pasted into a tab that already shows the lab changes only the fragment (#policy=…,
// #catalog=…), which loads no page: the lab would go on as it was and ignore the link. It loads the
// link as opening it would. (The lab itself rewrites its address with replaceState, which fires no
// hashchange.)
window.addEventListener('hashchange', () => { if (location.hash.includes('=')) location.reload(); });

// Leaving the page (reload, close, another address) would drop iterations this browser has not kept
// yet (it keeps the policy every few seconds) and that were not exported or shared: the browser asks
// first. (A policy just loaded has no curves yet: nothing to lose.)
window.addEventListener('beforeunload', (e) => {
  const s = useLab.getState();
  const last = s.series.at(-1);
  if (last && last !== s.savedPoint && s.browserSaved?.iteration !== last.iteration) e.preventDefault();
});

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
