import { needsSecondFactor, type LoginResult, type LoginSettings, type SecondFactorChallenge } from '@isps/contract';
import { Suspense, lazy, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { closeNotices, feedback } from '../../../shared/api/index.ts';
import { useLayoutSettings } from '../../../shared/layout-settings/index.ts';
import { redirectTarget, useSession } from '../../../shared/session/index.ts';
import { AntdScope, prefetchAntd } from '../../../shared/ui/antd-scope.tsx';
import { LightIcon, type LightIconName } from '../../../shared/ui/light-icon.tsx';
import { SliderCaptcha } from '../../../shared/ui/slider-captcha.tsx';
import { useDocumentTitle } from '../../../shared/ui/use-document-title.ts';
import { getCaptcha, newCheckKey } from '../api/get-captcha.ts';
import { getLoginSettings, pageTenant } from '../api/get-login-settings.ts';
import { login } from '../api/login.ts';
import { expectWelcome } from '../greeting.ts';
import { SHELL_PART, endShell, shellForm, type ShellField } from '../login-shell.ts';
import styles from './login.module.css';

// The login page draws without antd: plain fields styled like antd's. The phone tab and the second step (with its
// QR code) load antd and their forms when first shown, a notice loads antd's notices: the password form comes first.
const PhoneLoginForm = lazy(() => import('../components/phone-login-form.tsx').then((m) => ({ default: m.PhoneLoginForm })));
const SecondFactorStep = lazy(() => import('../components/second-factor-step.tsx').then((m) => ({ default: m.SecondFactorStep })));

interface LoginForm {
  username: string;
  password: string;
  captcha: string;
  slider: boolean;
}

type Field = keyof LoginForm;
type Errors = Partial<Record<Field, string>>;

const EMPTY: LoginForm = { username: '', password: '', captcha: '', slider: false };
const FIELDS: readonly Field[] = ['username', 'password', 'captcha', 'slider'];

/** A skeleton's grey bars while a part of the page loads. */
function Loading() {
  return (
    <div className={styles.skeleton} aria-hidden>
      <span />
      <span />
      <span />
    </div>
  );
}

/** A field and the message under it when its value is refused. */
function Item({ error, className, children }: { error?: string; className?: string; children: ReactNode }) {
  return (
    <div className={`${styles.item} ${error ? styles.itemWithError : ''} ${className ?? ''}`}>
      {children}
      {error && (
        <div className={styles.explain} role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

interface TextFieldProps {
  icon: LightIconName;
  name: ShellField;
  label: string;
  value: string;
  error?: string;
  onChange: (value: string) => void;
  type?: 'text' | 'password';
  autoComplete: string;
  autoFocus?: boolean;
  maxLength?: number;
}

/** A large input with an icon before it, as antd's; a password field can show what was typed. */
function TextField({ icon, name, label, value, error, onChange, type = 'text', autoComplete, autoFocus, maxLength }: TextFieldProps) {
  const [visible, setVisible] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  return (
    <span
      className={`${styles.affix} ${error ? styles.affixError : ''}`}
      // a press on the icons keeps the focus in the field, as antd's affix wrapper does
      onMouseDown={(event) => {
        if (event.target !== input.current) event.preventDefault();
      }}
      onClick={() => input.current?.focus()}
    >
      <span className={styles.prefix}>
        <LightIcon name={icon} />
      </span>
      <input
        ref={input}
        className={styles.input}
        name={name}
        type={type === 'password' && !visible ? 'password' : 'text'}
        value={value}
        placeholder={label}
        aria-label={label}
        aria-invalid={error ? true : undefined}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        maxLength={maxLength}
        onChange={(event) => onChange(event.target.value)}
      />
      {type === 'password' && (
        <span className={styles.suffix} onClick={() => setVisible((shown) => !shown)} aria-hidden>
          <LightIcon name={visible ? 'eye' : 'eyeInvisible'} />
        </span>
      )}
    </span>
  );
}

/**
 * The captcha image of `checkKey` (a data URL), undefined while it loads or when it cannot; `shown` is the picture the
 * page drawn at build time already showed for that key (the person may have read it), not asked for again.
 */
function useCaptchaImage(checkKey: string, shown: { checkKey: string; image: string | null } | null, wanted: boolean): string | undefined {
  const [image, setImage] = useState<{ key: string; data: string } | null>(() => (shown?.image ? { key: shown.checkKey, data: shown.image } : null));
  useEffect(() => {
    if (!wanted || image?.key === checkKey) return;
    let current = true;
    getCaptcha(checkKey).then(
      (data) => current && setImage({ key: checkKey, data }),
      () => undefined,
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new key (or the captcha turning on) asks for a picture; the picture itself does not
  }, [checkKey, wanted]);
  return image?.key === checkKey ? image.data : undefined;
}

/**
 * What the server lets the page offer (LOGIN_CAPTCHA, the tenant's self-registration): as the drawn page fetched it,
 * else fetched now; null until known (the captcha shows meanwhile, registration does not).
 */
function useLoginSettings(fromShell: LoginSettings | null, tenant: string | undefined): LoginSettings | null {
  const [settings, setSettings] = useState(fromShell);
  useEffect(() => {
    if (fromShell) return;
    let current = true;
    getLoginSettings(tenant).then(
      (answer) => current && setSettings(answer),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [fromShell, tenant]);
  return settings;
}

/** The two ways in as tabs: arrows, Home and End move between them (and show them). */
function LoginTabs({ tabs, active, onChange }: { tabs: { key: string; label: string; panel: ReactNode }[]; active: string; onChange: (key: string) => void }) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const at = tabs.findIndex((tab) => tab.key === active);
    let next: number | null = null;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = (at + 1) % tabs.length;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = (at - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next === null) return;
    event.preventDefault();
    onChange(tabs[next]!.key);
    buttons.current[next]?.focus();
  }
  return (
    <div className={styles.tabs}>
      <div role="tablist" className={styles.tabList} onKeyDown={onKeyDown}>
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`login-tab-${tab.key}`}
            aria-selected={tab.key === active}
            aria-controls={`login-panel-${tab.key}`}
            tabIndex={tab.key === active ? 0 : -1}
            className={`${styles.tab} ${tab.key === active ? styles.tabActive : ''}`}
            onClick={() => onChange(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div key={tab.key} role="tabpanel" id={`login-panel-${tab.key}`} aria-labelledby={`login-tab-${tab.key}`} hidden={tab.key !== active}>
          {tab.panel}
        </div>
      ))}
    </div>
  );
}

export default function LoginPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('login.pageTitle'));
  const primary = useLayoutSettings((s) => s.settings.primaryColor);
  // what was typed into the page drawn before the script came (index.html's shell), and the field the caret was in
  const [shell] = useState(shellForm);
  const [values, setValues] = useState<LoginForm>(() => (shell ? { ...EMPTY, ...shell.values } : EMPTY));
  const focused = shell?.focused ?? (shell ? null : 'username');
  useLayoutEffect(endShell, []);
  const [errors, setErrors] = useState<Errors>({});
  const [tab, setTab] = useState('account');
  const [phoneShown, setPhoneShown] = useState(false);
  const [checkKey, setCheckKey] = useState(() => shell?.captcha?.checkKey ?? newCheckKey());
  const location = useLocation();
  const tenant = pageTenant(location.search);
  const settings = useLoginSettings(shell?.settings ?? null, tenant);
  // until the server has said, the captcha is asked for (its default); LOGIN_CAPTCHA=off takes it and the slider away
  const captchaOn = settings?.captcha ?? true;
  const registration = settings?.registration ?? 'off';
  const captcha = useCaptchaImage(checkKey, shell?.captcha ?? null, captchaOn);
  const [pending, setPending] = useState(false);
  const signIn = useSession((s) => s.signIn);
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  // a submit the drawn page held (Enter, a password manager) is sent once the server's settings are known
  const heldSubmit = useRef(shell?.submitted ?? false);
  useEffect(() => {
    if (!heldSubmit.current || !settings) return;
    heldSubmit.current = false;
    form.current?.requestSubmit();
  }, [settings]);
  const [challenge, showChallenge] = useState<SecondFactorChallenge | null>(null);
  const setChallenge = (next: SecondFactorChallenge | null) => {
    closeNotices();
    showChallenge(next);
  };

  /** SPEC section 2's rules of the account form: each field required, the slider dragged to the end. */
  function refusal(field: Field, form: LoginForm): string | undefined {
    if (field === 'username' && !form.username.trim()) return t('login.usernameRequired');
    if (field === 'password' && !form.password) return t('login.passwordRequired');
    if (field === 'captcha' && captchaOn && !form.captcha.trim()) return t('login.captchaRequired');
    if (field === 'slider' && captchaOn && form.slider !== true) return t('sliderCaptcha.required');
    return undefined;
  }

  // a changed field is checked at once, as antd's form does
  function change<F extends Field>(field: F, value: LoginForm[F]) {
    const next = { ...values, [field]: value };
    setValues(next);
    setErrors((shown) => ({ ...shown, [field]: refusal(field, next) }));
  }

  function refreshCaptcha() {
    setCheckKey(newCheckKey());
    setValues((form) => ({ ...form, captcha: '', slider: false }));
    setErrors((shown) => ({ ...shown, captcha: undefined, slider: undefined }));
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const found: Errors = Object.fromEntries(FIELDS.map((field) => [field, refusal(field, values)]));
    setErrors(found);
    if (FIELDS.some((field) => found[field])) return;
    setPending(true);
    const answer = await login({ username: values.username.trim(), password: values.password, ...(captchaOn ? { captcha: values.captcha.trim(), checkKey } : {}) })
      .catch(() => null)
      .finally(() => setPending(false));
    if (!answer) {
      refreshCaptcha();
      return;
    }
    const result = answer.result;
    if (answer.success && result && needsSecondFactor(result)) {
      setChallenge(result);
      return;
    }
    if (!answer.success || !result || needsSecondFactor(result) || !result.token) {
      feedback().notify('error', t('login.failed'), answer.message || t('login.failed'), 4);
      refreshCaptcha();
      return;
    }
    enter(result);
  }

  function enter(result: LoginResult) {
    closeNotices();
    signIn(result.token, result.userInfo, result.multi_depart === 2);
    // The console greets once the menu has loaded; one who must first replace the initial password gets that dialog instead.
    if (!result.userInfo.mustChangePassword) expectWelcome();
    navigate(redirectTarget(location.search), { replace: true });
  }

  const pageStyle = { '--isps-primary': primary } as CSSProperties;

  if (challenge) {
    return (
      <AntdScope fallback={<Loading />}>
        <Suspense fallback={<Loading />}>
          <SecondFactorStep
            challenge={challenge}
            onDone={enter}
            onCancel={() => {
              setChallenge(null);
              refreshCaptcha();
            }}
          />
        </Suspense>
      </AntdScope>
    );
  }

  const accountForm = (
    // antd's context (for the console and its notices) starts loading once a person starts on the form
    <form ref={form} className={styles.form} onSubmit={(event) => void submit(event)} onInput={prefetchAntd} autoComplete="on" noValidate>
      <Item error={errors.username}>
        <TextField icon="user" name="username" label={t('login.username')} value={values.username} error={errors.username} onChange={(v) => change('username', v)} autoComplete="username" autoFocus={focused === 'username'} />
      </Item>
      <Item error={errors.password}>
        <TextField icon="lock" name="password" type="password" label={t('login.password')} value={values.password} error={errors.password} onChange={(v) => change('password', v)} autoComplete="current-password" autoFocus={focused === 'password'} />
      </Item>
      <div className={styles.captchaRow} {...{ [SHELL_PART.captchaRow]: '' }} hidden={!captchaOn}>
        <Item error={errors.captcha} className={styles.captchaInput}>
          <TextField icon="safety" name="captcha" label={t('login.captcha')} value={values.captcha} error={errors.captcha} onChange={(v) => change('captcha', v)} autoComplete="off" maxLength={16} autoFocus={focused === 'captcha'} />
        </Item>
        <button type="button" className={styles.captchaImage} onClick={refreshCaptcha} aria-label={t('login.captchaImage')} title={t('login.captchaImage')} {...{ [SHELL_PART.captchaImage]: '' }}>
          {captcha ? <img src={captcha} alt={t('login.captchaImage')} /> : <span className={styles.captchaLoading} />}
        </button>
      </div>
      {captchaOn && (
        <div {...{ [SHELL_PART.slider]: '' }}>
          <Item error={errors.slider}>
            <SliderCaptcha value={values.slider} onChange={(passed) => change('slider', passed)} />
          </Item>
        </div>
      )}
      <Item>
        <button type="submit" className={`${styles.submit} ${pending ? styles.submitPending : ''}`} aria-busy={pending || undefined}>
          {pending && <LightIcon name="loading" spin />}
          <span>{t('login.submit')}</span>
        </button>
      </Item>
    </form>
  );

  return (
    <div className={styles.login} style={pageStyle}>
      {/* a plain heading: antd's Typography (copy, edit, ellipsis) is more than the login page needs */}
      <h2 className={styles.heading}>{t('login.heading')}</h2>
      <LoginTabs
        active={tab}
        onChange={(key) => {
          setTab(key);
          if (key === 'phone') setPhoneShown(true);
        }}
        tabs={[
          { key: 'account', label: t('login.tabAccount'), panel: accountForm },
          {
            key: 'phone',
            label: t('login.tabPhone'),
            panel: phoneShown && (
              <AntdScope fallback={<Loading />}>
                <Suspense fallback={<Loading />}>
                  <PhoneLoginForm onDone={enter} onChallenge={setChallenge} />
                </Suspense>
              </AntdScope>
            ),
          },
        ]}
      />
      <div className={styles.links}>
        <Link to="/user/alteration">{t('login.forgotPassword')}</Link>
        {/* shown only where the tenant lets strangers register (the drawn page's script shows it when the server says so) */}
        <Link to={`/user/register${tenant ? `?tenant=${encodeURIComponent(tenant)}` : ''}`} hidden={registration === 'off'} {...{ [SHELL_PART.register]: '' }}>
          {t('login.register')}
        </Link>
      </div>
    </div>
  );
}
