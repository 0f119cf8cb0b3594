import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSignIn } from './prerender';

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
