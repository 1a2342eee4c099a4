// Renderer entry: draws the terminal. Until the panels arrive (issue 8) it shows the product's name.
const root = document.getElementById('root');
if (root) root.textContent = 'PM Desk';
