// Tailwind CSS runs only on stylesheets that import it: the dashboard's (app/(dashboard)/dashboard/dashboard.css).
// The hosted checkout and management pages keep their own plain CSS (app/globals.css).
const config = {
  plugins: { "@tailwindcss/postcss": {} },
};

export default config;
