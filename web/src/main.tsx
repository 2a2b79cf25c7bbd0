import { render } from 'preact';
import './styles.css';
import { completeSignIn, loadAuth } from './auth';
import { App } from './app';

async function boot(): Promise<void> {
  const root = document.getElementById('app')!;
  try {
    await loadAuth();
    if (location.pathname === '/callback') {
      const to = await completeSignIn();
      history.replaceState(null, '', to);
    }
  } catch (error) {
    history.replaceState(null, '', '/');
    render(<App bootError={error instanceof Error ? error.message : String(error)} />, root);
    return;
  }
  render(<App />, root);
}

void boot();
