import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { twMerge } from 'tailwind-merge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorScreen } from '@/components/errors/error-screen';
import { LoadingScreen } from '@/components/layout/loading-screen';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth-store';
import { drawnPage } from '@/lib/drawn-page';
import { installClassMerge } from '@/lib/class-merge';
import { cn, setClassMerge } from '@/lib/cn';
import { formatDayWords } from '@/lib/format';
import { queryClient } from '@/lib/query-client';
import { seededData } from '@/lib/query-client-registry';
import { i18n } from '@/locales/i18n';
import { buildDashboard, buildDashboardSummary, buildUser } from '@/test/fixtures';
import { renderDashboard, renderPage, renderSignIn } from './prerender';

const common = (lng: string) =>
  JSON.parse(
    readFileSync(
      path.join(
        path.dirname(new URL(import.meta.url).pathname),
        `../public/locales/${lng}/common.json`,
      ),
      'utf8',
    ),
  ) as Record<string, unknown>;

describe('the sign-in page rendered at build time (decision 0037)', () => {
  it.each([
    ['en', 'Token Back Office', 'Sign in', 'Username or email'],
    ['zh', '代币管理后台', '登录', '用户名或邮箱'],
  ])(
    'is the login route in %s, its button disabled until the app takes over',
    async (lng, title, heading, label) => {
      const page = await renderSignIn(lng as 'en' | 'zh', common(lng));
      expect(page.title).toBe(title);
      const root = document.createElement('div');
      root.innerHTML = page.html;
      expect(root.querySelector('h1')?.textContent).toBe(heading);
      expect([...root.querySelectorAll('label')].map((l) => l.textContent)).toContain(label);
      expect(root.querySelector('input[name=username]')).not.toBeNull();
      expect(root.querySelector('input[name=password]')).toHaveAttribute('type', 'password');
      // Enter in a field cannot submit the inert form (a GET with the password in the address).
      expect(root.querySelector('button[type=submit]')).toBeDisabled();
    },
  );
});

/**
 * Every class attribute of `html` is as tailwind-merge would leave it: no class there overrides
 * another, so the markup looks the same joined or merged.
 */
function expectNoOverridingClasses(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  const classes = [...root.querySelectorAll('[class]')].map((element) =>
    element.getAttribute('class')!,
  );
  expect(classes.length).toBeGreaterThan(3);
  expect(classes.filter((value) => twMerge(value) !== value)).toEqual([]);
}

describe('the screens drawn before tailwind-merge arrives (decision 0049)', () => {
  // As the entry draws them: `cn` only joins until the root route loads the merge.
  beforeAll(() => setClassMerge(undefined));
  afterAll(installClassMerge);

  it.each([
    paths.login.path,
    paths.errors.forbidden.path,
    paths.errors.notFound.path,
    paths.errors.accessDenied.path,
  ])(
    '%s has no class that another overrides, so it looks the same joined or merged',
    async (path) => expectNoOverridingClasses((await renderPage('en', common('en'), path)).html),
  );

  it('neither have the loading and error screens', () => {
    expectNoOverridingClasses(
      renderToString(
        <I18nextProvider i18n={i18n}>
          <LoadingScreen />
          <ErrorScreen error={new Error('boom')} onReload={() => {}} />
        </I18nextProvider>,
      ),
    );
  });

  it.each([
    ['an admin', 'admin', 'all', false],
    ['an admin on a phone', 'admin', 'all', true],
    ['a company admin', 'company_admin', 'company', false],
    ['a company admin on a phone', 'company_admin', 'company', true],
  ] as const)(
    'neither has the signed-in shell with the dashboard of %s (decision 0058)',
    async (_, role, view, mobile) => {
      const { html } = await renderDashboard({
        lng: 'en',
        common: common('en'),
        url: '/dashboard?month=2026-01',
        cookie: '',
        user: buildUser(role, { user_id: 41 }),
        dashboard: buildDashboard(view === 'all' ? { view, company_id: null } : { view }),
        summary: buildDashboardSummary(),
        mobile,
      });
      // Drawn whole, as the API draws it: the shell, the page, its cards.
      expect(html).toContain('data-slot="sidebar-inset"');
      expect(html).toContain('data-testid="dashboard-window"');
      expectNoOverridingClasses(html);
    },
  );

  it('while a signed-in screen lets a later class override an earlier one', () => {
    expect(cn('px-2', 'px-3')).toBe('px-2 px-3');
    installClassMerge();
    expect(cn('px-2', 'px-3')).toBe('px-3');
  });
});

describe("a signed-in user's dashboard rendered by the API (decision 0050)", () => {
  const dashboard = buildDashboard({ view: 'all', company_id: null, daily: [] });
  const summary = buildDashboardSummary();
  const user = buildUser('admin', { user_id: 41, username: 'ava.admin' });
  const parse = (html: string) => {
    const root = document.createElement('div');
    root.innerHTML = html;
    return root;
  };

  it.each(['en', 'zh'] as const)(
    'is the page with its figures in %s, closed to the pointer until the app hydrates it',
    async (lng) => {
      const page = await renderDashboard({
        lng,
        common: common(lng),
        url: '/dashboard?month=2026-01',
        cookie: '',
        user,
        dashboard,
        summary,
      });
      const root = parse(page.html);
      const wrapper = root.firstElementChild as HTMLElement | null;
      expect(wrapper).toHaveAttribute('data-server-rendered', 'wide');
      expect(wrapper?.style.pointerEvents).toBe('none');
      expect(wrapper?.style.display).toBe('contents');
      expect(wrapper?.querySelector('h1')?.textContent).toBe(i18n.getFixedT(lng)('nav.dashboard'));
      const sentence = root.querySelector('[data-testid=dashboard-window]')?.textContent;
      expect(sentence).toContain(formatDayWords('2026-01-01', lng));
      expect(sentence).toContain(formatDayWords('2026-01-31', lng));
      expect(root.textContent).toContain((1234567).toLocaleString(lng === 'zh' ? 'zh-CN' : 'en'));
      expect(root.textContent).toContain('Acme');
      // The shell is this user's, with its sidebar on a wide screen; the page is painted
      // whole, chart included (an empty month's: in words).
      expect(root.querySelector('[data-slot=sidebar]')).not.toBeNull();
      expect(root.querySelector('[data-testid=chart-pending]')).toBeNull();
      expect(root.querySelector('[data-testid=chart-empty]')).not.toBeNull();
      // In the app's frame: its Suspense boundaries' markers, none left unfinished for the
      // browser to draw again (React's #419, which hydration reports).
      expect(page.html).toContain('<!--$-->');
      expect(page.html).not.toContain('<!--$!-->');
    },
  );

  it('draws it for a phone when the request came from one (decision 0051)', async () => {
    const days = buildDashboard({ view: 'all', company_id: null });
    const page = await renderDashboard({
      lng: 'en',
      common: common('en'),
      url: '/dashboard',
      cookie: '',
      user,
      dashboard: days,
      summary,
      mobile: true,
    });
    const root = parse(page.html);
    expect(root.firstElementChild).toHaveAttribute('data-server-rendered', 'phone');
    // A phone's sidebar is a sheet, opened from the header: nothing of it is drawn.
    expect(root.querySelector('[data-slot=sidebar]')).toBeNull();
    expect(root.querySelector('[data-sidebar=trigger]')).not.toBeNull();
    // The chart of a month that moved tokens.
    expect(root.querySelector('[data-testid=chart-drawing]')).not.toBeNull();
    // Nothing of the phone stays for the next render.
    expect(drawnPage()).toBeNull();
  });

  it('hands the app the answers it was drawn from, and keeps none of them', async () => {
    const page = await renderDashboard({
      lng: 'en',
      common: common('en'),
      url: '/dashboard?month=2026-01&company_id=x',
      cookie: 'sidebar_state=false',
      user,
      dashboard,
      summary,
    });
    expect(JSON.parse(page.state)).toEqual({
      user_id: 41,
      queries: [
        { queryKey: ['self-info'], data: user },
        // The page's own keys, for the search as the page reads it (an invalid company: none).
        { queryKey: ['dashboard', 'view', { month: '2026-01' }], data: dashboard },
        { queryKey: ['dashboard', 'summary', '2026-01'], data: summary },
      ],
    });
    // The sidebar as its cookie left it.
    expect(parse(page.html).querySelector('[data-state=collapsed]')).not.toBeNull();
    const expanded = await renderDashboard({
      lng: 'en',
      common: common('en'),
      url: '/dashboard',
      cookie: '',
      user,
      dashboard,
    });
    expect(parse(expanded.html).querySelector('[data-state=collapsed]')).toBeNull();
    expect(parse(expanded.html).querySelector('[data-state=expanded]')).not.toBeNull();
    // Nothing of this user stays in the app's shared session store and query cache.
    expect(useAuthStore.getState()).toMatchObject({ user: null, isAuthenticated: false });
    expect(useAuthStore.getInitialState()).toMatchObject({ user: null, isAuthenticated: false });
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
    expect(seededData(['self-info'])).toBeUndefined();
  });
});
