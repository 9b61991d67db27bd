import './zod-setup';
import { startApp } from './app';

const root = document.getElementById('app');
if (root) startApp(root);
