import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { ErrorJson } from './client.ts';
import { customer, emailsOf, orderRequest, postOrder, rowCounts, setStock, PS5 } from './orders-helpers.ts';

// What a shopper types travels into D1, the order e-mails and the logs: the API takes
// only text that fits each field (one line, no control characters; addresses in the
// characters addresses use), and the e-mails carry as little of it as they need.

const ONE_LINE = (label: string) => `Please write your ${label} on one line, without line breaks or hidden characters`;

async function expectRefused(customerChange: Record<string, string>) {
  await setStock(PS5.id, 100);
  const before = await rowCounts();
  const response = await postOrder(orderRequest({ customer: { ...customer, ...customerChange } }));
  expect(response.status).toBe(400);
  const { error } = await response.json<ErrorJson>();
  expect(error.code).toBe('invalid_request');
  expect(await rowCounts()).toEqual(before);
  return error.issues ?? [];
}

describe('POST /api/orders: the customer’s text fields', () => {
  it('refuses a name with line breaks (an e-mail to someone else saying the bank account changed), storing nothing', async () => {
    const issues = await expectRefused({
      email: 'victim@example.com',
      name: 'Customer,\n\nOur bank account has changed. From today pay into Zenith Bank 0123456789.\n\nThank you',
    });
    expect(issues).toEqual([{ field: 'customer.name', message: ONE_LINE('full name') }]);
  });

  it('refuses a line break in the city and markup in the address, naming each field', async () => {
    const issues = await expectRefused({
      city: 'Ikeja\r\nLagos',
      address: '12 Allen Avenue <a href="https://evil.example">Ikeja</a>',
    });
    expect(issues).toEqual([
      { field: 'customer.address', message: "Use only letters, numbers, spaces and , . - / # ' ( ) & in your address" },
      { field: 'customer.city', message: ONE_LINE('city') },
    ]);
  });

  it('takes a Yorùbá name and address as typed', async () => {
    await setStock(PS5.id, 100);
    const name = 'Adébáyọ̀ Ọláńrewájú';
    const address = 'No. 14 Ọ̀ba Adébímpé Road, Ìbàdàn';
    const response = await postOrder(orderRequest({ customer: { ...customer, name, address, city: 'Ìbàdàn', state: 'Oyo' } }));
    expect(response.status, await response.clone().text()).toBe(201);
    const { order } = await response.json<{ order: { number: string; customer: { name: string; address: string } } }>();
    expect(order.customer).toMatchObject({ name, address });
    const [email] = await emailsOf(order.number);
    expect(email!.text.split('\n')[0]).toBe(`Hello ${name},`);
  });
});

describe('the confirmation e-mail', () => {
  it.each([
    ['an account number', 'Ada Obi. New account: Zenith 0123456789'],
    ['a link', 'Ada see https://evil.example'],
    ['markup', 'Ada <b>Obi</b>'],
    ['more than 60 characters', `Ada ${'Obiageli '.repeat(7)}Obi`],
  ])('greets with "Hello," alone when the name holds %s', async (_, name) => {
    await setStock(PS5.id, 100);
    const response = await postOrder(orderRequest({ customer: { ...customer, name } }));
    expect(response.status, await response.clone().text()).toBe(201);
    const { order } = await response.json<{ order: { number: string } }>();
    const [email] = await emailsOf(order.number);
    expect(email!.text.split('\n\n')[0]).toBe('Hello,');
    for (const body of [email!.text, email!.html]) expect(body).not.toContain(name.slice(4, 20));
  });

  it('carries no customer text but the name, once, in its greeting', async () => {
    await setStock(PS5.id, 100);
    const response = await postOrder(orderRequest({ customer: { ...customer, email: 'ada.text@example.com' } }));
    expect(response.status, await response.clone().text()).toBe(201);
    const { order } = await response.json<{ order: { number: string } }>();
    const [email] = await emailsOf(order.number);
    const row = (await env.DB.prepare('select recipient, subject, text, html from email_outbox where id = ?')
      .bind(email!.id)
      .first<{ recipient: string; subject: string; text: string; html: string }>())!;

    expect(row.recipient).toBe('ada.text@example.com');
    expect(row.text.split('\n\n')[0]).toBe(`Hello ${customer.name},`);
    for (const body of [row.subject, row.text, row.html]) {
      expect(body.split(customer.name).length - 1, body).toBe(body === row.subject ? 0 : 1);
      for (const personal of ['ada.text', customer.address, 'Allen Avenue', customer.city, customer.phone, '8031234567']) {
        expect(body, `${personal} in ${body}`).not.toContain(personal);
      }
    }
    // (The state is one of a fixed list, and "Lagos" is in "Lagos time" anyway.)
    // The amounts and the bank account come from D1 and the store's config.
    expect(row.text).toContain(
      'Please transfer ₦850,500 to:\nBank: First Bank\nAccount name: GTS Electronics Ltd\nAccount number: 3081726354',
    );
  });
});
