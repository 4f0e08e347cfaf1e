import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles.css';
import './layout/layout.css';
import { useLab } from '../store/labStore';

// The store on window, for tests and for researchers at the console (read state, call actions).
(window as unknown as { orchestraLab: typeof useLab }).orchestraLab = useLab;

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
