/**
 * The page's one Trusted Types policy, and the only place where markup becomes DOM.
 *
 * The page's CSP requires Trusted Types for every HTML sink and allows exactly this policy
 * (`trusted-types kbchat-markdown`). DOMPurify sanitises marked's output against an allow-list
 * and returns a DocumentFragment; to parse the HTML into its inert document it needs a
 * TrustedHTML, which it gets from this policy. The policy itself only answers while
 * {@link sanitizedFragment} runs, so no other code can turn a string into markup with it.
 */
import DOMPurify, { type Config } from 'dompurify';
import type { TrustedTypePolicy, TrustedTypesWindow } from 'trusted-types/lib';

export const POLICY_NAME = 'kbchat-markdown';

let sanitising = false;

function refuse(): never {
  throw new TypeError(`${POLICY_NAME}: only the Markdown sanitiser may create HTML`);
}

const factory = (window as unknown as TrustedTypesWindow).trustedTypes;
const policy = factory?.createPolicy(POLICY_NAME, {
  createHTML: (html: string) => (sanitising ? html : refuse()),
  // Nothing the answers may contain loads a script.
  createScriptURL: () => refuse(),
}) as TrustedTypePolicy | undefined;

/** The elements marked produces for CommonMark and GFM, minus images and raw HTML. */
const CONFIG: Config = {
  ALLOWED_TAGS: [
    'p',
    'br',
    'hr',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'input',
    'strong',
    'em',
    'del',
    'a',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  ALLOWED_ATTR: [
    'href',
    'title',
    'rel',
    'target',
    'start',
    'align',
    'type',
    'checked',
    'disabled',
    'aria-label',
  ],
  // DOMPurify's default minus every scheme but http(s) and mailto. It checks every attribute
  // value against it, so plain values ("right", "1") must pass too.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  ALLOW_DATA_ATTR: false,
  ...(policy ? { TRUSTED_TYPES_POLICY: policy } : {}),
};

// A task-list box may only be a disabled checkbox.
DOMPurify.addHook('uponSanitizeElement', (node, data) => {
  if (data.tagName !== 'input') return;
  const input = node as Element;
  if (input.getAttribute('type') !== 'checkbox' || !input.hasAttribute('disabled')) input.remove();
});

/** Sanitised DOM for the HTML of rendered Markdown. */
export function sanitizedFragment(html: string): DocumentFragment {
  sanitising = true;
  try {
    return DOMPurify.sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true });
  } finally {
    sanitising = false;
  }
}
