/** The explorer's entry: mounts the app and boots the data. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App';
import { appStore } from './shell/store';
import { boot } from './shell/boot';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
void boot(appStore);
