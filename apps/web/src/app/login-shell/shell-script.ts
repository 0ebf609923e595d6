/**
 * Build time only (vite.config.ts, loginShell): the classic script at the end of index.html's body that draws the
 * login page before the console's script has come (the server's content security policy refuses inline scripts, so it
 * is a file of its own). Kept here, beside the page it draws, so a test can run it in a document.
 *
 * On a first visit's login page (no one signed in) it puts the page of the stored language (else the browser's, as the
 * console picks it) into #root and marks it
 * (SHELL_MARK), then, before the console is there:
 * - shows the captcha picture at once: it asks the server for one under a check key of its own, which the console
 *   takes over with the picture (what was read off it still holds);
 * - asks the server what the page offers (LOGIN_CAPTCHA, the tenant's self-registration): hides the captcha when it
 *   is off, shows the register link when the tenant takes registrations, and leaves the answer for the console;
 * - hides the slider (a drag cannot be followed before the console is there) while keeping its place;
 * - never ignores a submit: Enter, the button or a password manager's `form.submit()` is held (the page marks it and
 *   the button shows busy), the console's script starts at once, and the console sends the form when it has drawn the
 *   page (login.tsx).
 * A dark console (the settings drawer's stored choice) is marked dark at once, the drawn page's colours following it.
 * It starts the console's script: at once on any other address, and on the drawn page when the person first presses a
 * key, points or types, or after `waitMs`.
 */
import { SHELL_MARK, SHELL_PART } from '../../features/user/login-shell.ts';

export interface ShellScriptOptions {
  /** the page drawn at build time, per language */
  shells: Record<string, string>;
  /** the year the copyright line of `shells` names (the visitor's year replaces it) */
  year: number;
  /** the console's entry chunk, as `/assets/…` */
  entry: string;
  /** API_PREFIX of the console's calls */
  apiBase: string;
  /** the contract's paths the script calls (vite.config.ts, which cannot load the contract package, hands them in) */
  paths: { randomImage: string; loginSettings: string };
  /** the addresses of the login page */
  loginPaths: readonly string[];
  /** what a person does that starts the console's script */
  events: readonly string[];
  waitMs: number;
}

const j = JSON.stringify;

/**
 * A script expression for the language of a first visit, the one browserLanguage (the contract's) picks from
 * navigator.languages: index.html's scripts run before the console and cannot load the contract (shell-language.test.tsx
 * holds the two alike).
 */
export const BROWSER_LANGUAGE_JS =
  `(()=>{for(const g of navigator.languages||[navigator.language]){const p=(String(g).trim().split(/[-_]/)[0]||'').toLowerCase();` +
  `const f=['zh-CN','en-US','ja-JP'].find(x=>x.slice(0,2)===p);if(f)return f}return 'zh-CN'})()`;

export function loginShellScript(o: ShellScriptOptions): string {
  const api = o.apiBase.replace(/\/$/, '');
  const part = (name: keyof typeof SHELL_PART) => j(`[${SHELL_PART[name]}]`);
  return (
    `{const s=${j(o.shells)},r=document.getElementById('root');let l=${BROWSER_LANGUAGE_JS},v=null,t=null,d=false;` +
    `try{t=localStorage.getItem('pro__Access-Token');v=JSON.parse(localStorage.getItem('pro__lang')).value}catch{}` +
    `if(s[v])l=v;` +
    // the stored dark choice of the settings drawer (applyContentTheme) before anything is drawn, on every address
    `try{const p=JSON.parse(localStorage.getItem('pro__layout-settings')).value.contentTheme;` +
    `if(p==='dark'||(p==='system'&&matchMedia('(prefers-color-scheme: dark)').matches)){const e=document.documentElement;e.dataset.theme='dark';e.style.colorScheme='dark'}}catch{}` +
    // the console's script, once
    `let g=false;const c=()=>{if(g)return;g=true;for(const e of ${j(o.events)})removeEventListener(e,c,true);` +
    `const m=document.createElement('script');m.type='module';m.crossOrigin='';m.src=${j(o.entry)};document.head.append(m)};` +
    `if(r&&!r.firstChild&&!t&&${j(o.loginPaths)}.includes(location.pathname)){` +
    // the language and the visitor's year go in before the page does: one style and layout pass, not three
    `document.documentElement.lang=l;r.setAttribute(${j(SHELL_MARK)},'');` +
    `r.innerHTML=s[l].replace(${j(`© ${o.year}`)},'© '+new Date().getFullYear());` +
    `const q=a=>r.querySelector(a),h={headers:{lang:l}},n=()=>r.hasAttribute(${j(SHELL_MARK)});` +
    `const y=q(${part('slider')});if(y)y.style.visibility='hidden';` +
    // the captcha picture at once, under a key of the shell's (as newCheckKey makes them)
    `const b=q(${part('captchaImage')});if(b){` +
    `const k=Date.now().toString(36)+'_'+Array.from(crypto.getRandomValues(new Uint8Array(16)),x=>x.toString(16).padStart(2,'0')).join('');` +
    `b.setAttribute(${j(SHELL_PART.checkKey)},k);` +
    `fetch(${j(api + o.paths.randomImage.replace(':key', ''))}+k,h).then(x=>x.json()).then(e=>{` +
    `const u=e&&e.result&&(typeof e.result==='string'?e.result:e.result.image);if(!e.success||!u||!n())return;` +
    `const i=document.createElement('img');i.src=u;i.alt=b.getAttribute('aria-label')||'';b.replaceChildren(i)}).catch(()=>{})}` +
    // what the page offers, told by the server
    `const z=new URLSearchParams(location.search).get('tenant');` +
    `fetch(${j(api + o.paths.loginSettings)}+(z?'?tenant='+encodeURIComponent(z):''),h).then(x=>x.json()).then(e=>{` +
    `const o=e&&e.result;if(!e.success||!o||!n())return;r.setAttribute(${j(SHELL_PART.settings)},JSON.stringify(o));` +
    `if(o.captcha===false){const w=q(${part('captchaRow')});if(w)w.hidden=true;if(y)y.hidden=true}` +
    `if(o.registration&&o.registration!=='off'){const a=q(${part('register')});if(a)a.hidden=false}}).catch(()=>{});` +
    // a submit is held for the console, never dropped; submit() (password managers) fires no event: it goes the same way
    `for(const f of r.querySelectorAll('form')){f.addEventListener('submit',e=>{e.preventDefault();if(!n())return;` +
    `r.setAttribute(${j(SHELL_PART.submit)},'');const u=f.querySelector('button[type=submit]');if(u)u.setAttribute('aria-busy','true');c()});` +
    `f.submit=()=>f.requestSubmit()}` +
    `const u=q('[autofocus]');if(u){u.removeAttribute('autofocus');u.focus()}d=true}` +
    `if(d){for(const e of ${j(o.events)})addEventListener(e,c,true);setTimeout(c,${o.waitMs})}else c()}\n`
  );
}
