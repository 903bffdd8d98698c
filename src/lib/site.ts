/** Store facts shown across pages; one place to change them. */
export const STORE = {
  name: 'GTS',
  legalName: 'GTS Electronics Ltd',
  tagline: 'Phones, laptops, TVs and gaming, at honest naira prices',
  address: '23 Otigba Street, Computer Village, Ikeja, Lagos',
  phone: '+234 802 000 4870',
  phoneHref: 'tel:+2348020004870',
  email: 'hello@gts.ng',
  mapsUrl: 'https://www.google.com/maps/search/?api=1&query=Otigba+Street+Computer+Village+Ikeja+Lagos',
  hours: [
    { days: 'Monday – Saturday', time: '9AM – 8PM' },
    { days: 'Sunday', time: '10AM – 6PM' },
  ],
} as const;

export const INFO_LINKS = [
  { href: '/about', label: 'About us' },
  { href: '/contact', label: 'Contact' },
  { href: '/shipping', label: 'Shipping' },
  { href: '/returns', label: 'Returns' },
  { href: '/warranty', label: 'Warranty' },
  { href: '/privacy', label: 'Privacy' },
  { href: '/terms', label: 'Terms' },
  { href: '/sitemap', label: 'Sitemap' },
] as const;
