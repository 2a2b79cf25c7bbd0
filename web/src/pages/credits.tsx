import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { num, when } from '../format';
import { carriedBefore, kindWords, type LedgerLine } from '../ledger';
import { TableWrap } from '../table-wrap';
import { linkClick } from '../router';

interface Credits {
  balance: { total: number; subscription: number; purchased: number };
  ledger: (LedgerLine & { resource_id: string | null; upload: { id: string; filename: string } | null })[];
}

const signed = (n: number) => (n > 0 ? `+${num(n)}` : num(n));

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
            <p class="meta">Every change to your credits, newest first: the rows add up to the total above.</p>
            <Ledger total={data.balance.total} lines={data.ledger} />
          </section>
        </>
      )}
    </>
  );
}

function Ledger({ total, lines }: { total: number; lines: Credits['ledger'] }) {
  const before = carriedBefore(total, lines);
  return (
    <TableWrap label="Credit changes">
      <table>
        <caption class="sr-only">Credit changes, newest first, adding up to the total</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Kind</th>
            <th scope="col">Credits</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.change_id}>
              <td>{when(l.created_at)}</td>
              <td>{kindWords(l.kind)}</td>
              <td class={l.amount < 0 ? 'neg' : 'pos'}>{signed(l.amount)}</td>
              <td>
                {l.reason}
                {l.upload && (
                  <>
                    {': '}
                    <a href={`/uploads/${l.upload.id}`} onClick={(e) => linkClick(e, `/uploads/${l.upload!.id}`)}>
                      {l.upload.filename}
                    </a>
                  </>
                )}
              </td>
            </tr>
          ))}
          {before !== 0 && (
            <tr>
              <td>Earlier</td>
              <td>carried over</td>
              <td class={before < 0 ? 'neg' : 'pos'}>{signed(before)}</td>
              <td>{lines.length >= 100 ? 'Changes older than the 100 shown' : 'Credits from before the ledger recorded them (the balance’s first allocation)'}</td>
            </tr>
          )}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={2}>
              Total
            </th>
            <td>{num(total)}</td>
            <td />
          </tr>
        </tfoot>
      </table>
    </TableWrap>
  );
}
