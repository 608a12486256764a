mod ram;
