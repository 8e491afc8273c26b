/** The explorer's entry: makes the page's one store, mounts the app with it and boots the data with it. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App';
import { createAppStore, StoreContext } from './shell/store';
import { boot } from './shell/boot';
import './styles.css';

const store = createAppStore();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <App />
    </StoreContext.Provider>
  </StrictMode>,
);
void boot(store);
