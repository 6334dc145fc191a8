// The link to this exact view: scenario, algorithms, timeline, zoom and cursor.
import { useState, useSyncExternalStore } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAppState } from '../app/AppContext';
import { PACK_MARK, QUERY_LIMIT } from '../scenario/longLink';
import { shareQuery, shareStateOf } from '../state/urlSync';

/** The page's address without its query (it does not change while the page is open). */
const pageAddress = () => `${window.location.origin}${window.location.pathname}`;
const noUpdates = () => () => {};

/** A read-only field with the link and a copy button. */
export function SharePanel() {
  // Select the parts (references, compared shallowly) and encode only when one changes
  // (shareQuery keeps the last encoding, which the address bar and print share): a selector
  // that encoded would run on every store update.
  const share = useAppState(useShallow(shareStateOf));
  const query = shareQuery(share);
  const [copied, setCopied] = useState(false);
  // Prerendered at build time (src/prerender) there is no page address: the field is empty
  // there, and while the page hydrates that HTML (start.tsx), so that both agree.
  const page = useSyncExternalStore(noUpdates, pageAddress, () => null);
  const url = page === null ? '' : `${page}?${query}`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      // No clipboard permission (e.g. plain http): select the text so Ctrl+C works.
      const field = document.getElementById('share-url') as HTMLInputElement | null;
      field?.select();
      setCopied(false);
    }
  };
  return (
    <div className="share">
      <label htmlFor="share-url">Link to this view</label>
      <div className="control-row">
        <input id="share-url" type="text" readOnly value={url} onFocus={(e) => e.target.select()} />
        <button type="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      {query.includes(`#${PACK_MARK}`) && (
        <p className="control-help" role="note" data-testid="share-long">
          This link is long ({url.length.toLocaleString('en')} characters): what does not fit in the{' '}
          {QUERY_LIMIT.toLocaleString('en')} bytes servers are sure to accept is after its #, which stays in the
          browser. Some mail and chat programs cut long links: open the pasted link to check it (a link that was cut
          says so).
        </p>
      )}
    </div>
  );
}
