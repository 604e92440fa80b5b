/** The service icon (docs page tab, apis.json image): a lens over a link, readable at 16 px. */
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#1f2328"/>
<circle cx="14" cy="14" r="7.5" fill="none" stroke="#ffffff" stroke-width="3"/>
<path d="M19.5 19.5 26 26" stroke="#3fb950" stroke-width="4" stroke-linecap="round"/>
</svg>
`;
