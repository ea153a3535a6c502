document.documentElement.dataset.app = "loaded";
