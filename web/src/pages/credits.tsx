import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { num, when } from '../format';

interface Credits {
  balance: { total: number; subscription: number; purchased: number };
  ledger: { change_id: string; kind: string; amount: number; reason: string; resource_id: string | null; created_at: string }[];
}

export function CreditsPage() {
  const [data, setData] = useState<Credits | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<Credits>('GET', '/credits').then(setData, (e: Error) => setError(e.message));
  }, []);
  return (
    <>
      <h1>Credits</h1>
      {error && <p role="alert" class="error">{error}</p>}
      {data && (
        <>
          <dl class="counts big">
            <div>
              <dt>Total</dt>
              <dd>{num(data.balance.total)}</dd>
            </div>
            <div>
              <dt>Subscription</dt>
              <dd>{num(data.balance.subscription)}</dd>
            </div>
            <div>
              <dt>Purchased</dt>
              <dd>{num(data.balance.purchased)}</dd>
            </div>
          </dl>
          <section aria-labelledby="ledger-h">
            <h2 id="ledger-h">Charges and refunds</h2>
            <div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Credits</th>
                    <th scope="col">Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {data.ledger.map((l) => (
                    <tr key={l.change_id}>
                      <td>{when(l.created_at)}</td>
                      <td>{l.kind}</td>
                      <td class={l.amount < 0 ? 'neg' : 'pos'}>{l.amount > 0 ? `+${num(l.amount)}` : num(l.amount)}</td>
                      <td>{l.reason}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </>
      )}
    </>
  );
}
