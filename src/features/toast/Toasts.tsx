import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';

/** The toast outlet (decisions.md: top-right, 5 s, progress bar, pause on hover, draggable, Alt+T). */
export default function Toasts() {
  return (
    <ToastContainer
      position="top-right"
      autoClose={5000}
      closeOnClick
      pauseOnHover
      draggable
      hotKeys={(e) => e.altKey && e.code === 'KeyT'}
      theme="colored"
    />
  );
}
